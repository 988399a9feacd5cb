void main()
{
    ubyte[][] hog;
    for (;;) {
        auto a = new ubyte[1 << 20];
        a[] = 7;
        hog ~= a;
    }
}
