use threads;
my $t = threads->create(sub { 6 * 7 });
print $t->join, "\n";
