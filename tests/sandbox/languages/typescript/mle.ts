const hog: Buffer[] = [];
for (;;) hog.push(Buffer.alloc(1 << 20, 1));
