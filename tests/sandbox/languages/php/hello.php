echo "hello\n";
