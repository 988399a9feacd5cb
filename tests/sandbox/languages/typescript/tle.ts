let n: number = 0;
for (;;) n++;
