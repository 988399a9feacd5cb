void main()
{
    ulong n;
    for (;;)
        n++;
}
