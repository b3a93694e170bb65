// The separately compiled implementation of Asio and Asio's SSL support (compiled once here;
// every other translation unit sees BOOST_ASIO_SEPARATE_COMPILATION).
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
