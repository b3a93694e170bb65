// webhook-peer-controller-runtime: controller-runtime's webhook server as the peer of
// bench/webhook_bench. It serves, over HTTPS from --cert-dir (tls.crt, tls.key), one
// validating webhook for certs.capstan.dev/v1 Certificates at the path Capstan serves it,
// decoding the object into a typed struct and checking what Capstan's validation checks first
// (secretName, issuerRef.name, an identity, duration and renewBefore), as a controller-runtime
// operator would write it. It prints "listening <port>" once it serves.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/go-logr/logr"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

type certificate struct {
	Spec struct {
		SecretName  string   `json:"secretName"`
		CommonName  string   `json:"commonName"`
		DNSNames    []string `json:"dnsNames"`
		IPAddresses []string `json:"ipAddresses"`
		URIs        []string `json:"uris"`
		Duration    string   `json:"duration"`
		RenewBefore string   `json:"renewBefore"`
		IssuerRef   struct {
			Name  string `json:"name"`
			Kind  string `json:"kind"`
			Group string `json:"group"`
		} `json:"issuerRef"`
	} `json:"spec"`
}

type validator struct{}

func (validator) Handle(_ context.Context, req admission.Request) admission.Response {
	var c certificate
	if err := json.Unmarshal(req.Object.Raw, &c); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	var errs []string
	if c.Spec.SecretName == "" {
		errs = append(errs, "spec.secretName: Required value")
	}
	if c.Spec.IssuerRef.Name == "" {
		errs = append(errs, "spec.issuerRef.name: Required value")
	}
	if c.Spec.CommonName == "" && len(c.Spec.DNSNames) == 0 && len(c.Spec.IPAddresses) == 0 && len(c.Spec.URIs) == 0 {
		errs = append(errs, "spec: Invalid value: at least one of commonName, dnsNames, uris or ipAddresses must be set")
	}
	duration := 90 * 24 * time.Hour
	if c.Spec.Duration != "" {
		d, err := time.ParseDuration(c.Spec.Duration)
		if err != nil || d < time.Hour {
			errs = append(errs, fmt.Sprintf("spec.duration: Invalid value: %q: certificate duration must be greater than 1h0m0s", c.Spec.Duration))
		} else {
			duration = d
		}
	}
	if c.Spec.RenewBefore != "" {
		r, err := time.ParseDuration(c.Spec.RenewBefore)
		if err != nil || r >= duration {
			errs = append(errs, fmt.Sprintf("spec.renewBefore: Invalid value: %q: must be less than spec.duration", c.Spec.RenewBefore))
		}
	}
	if len(errs) > 0 {
		msg := errs[0]
		for _, e := range errs[1:] {
			msg += ", " + e
		}
		return admission.Denied(msg)
	}
	return admission.Allowed("")
}

func main() {
	certDir := flag.String("cert-dir", "", "directory with tls.crt and tls.key")
	flag.Parse()
	crlog.SetLogger(logr.Discard())
	// A free port chosen here, as controller-runtime's server takes a number.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	server := webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: port, CertDir: *certDir})
	server.Register("/validate-certs-capstan-dev-v1-certificate", &webhook.Admission{Handler: validator{}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		if err := server.Start(ctx); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}()
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			fmt.Printf("listening %d\n", port)
			break
		}
		time.Sleep(25 * time.Millisecond)
	}
	select {}
}
