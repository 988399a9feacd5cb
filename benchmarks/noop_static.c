/* The cheapest possible program: a static binary that exits 0 (the benchmark's floor). */
int main(void)
{
    return 0;
}
