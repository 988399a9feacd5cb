#include <boost/any.hpp>
#include <iostream>
#include <openssl/sha.h>
int main() {
    boost::any a = 42;
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char *>("abc"), 3, d);
    std::cout << boost::any_cast<int>(a) << " " << std::hex << int(d[0]) << std::endl;
}
