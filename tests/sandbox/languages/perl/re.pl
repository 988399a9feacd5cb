exit 3;
