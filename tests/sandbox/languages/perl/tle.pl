1 while 1;
