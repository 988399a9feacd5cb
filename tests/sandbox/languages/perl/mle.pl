my @hog;
push @hog, "x" x (1 << 20) while 1;
