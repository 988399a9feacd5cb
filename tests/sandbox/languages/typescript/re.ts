const code: number = 3;
process.exit(code);
