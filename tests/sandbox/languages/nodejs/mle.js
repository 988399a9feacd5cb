const hog = [];
for (;;) hog.push(Buffer.alloc(1 << 20, 1));
