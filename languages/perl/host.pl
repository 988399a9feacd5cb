# The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), run after the
# program's own code as `verdict_host.pl` (wire.pl before this). It holds no secret and decides
# nothing: it answers the grader's calls, one per line (languages/wire.md), and the grader
# trusts nothing it says beyond the values it carries.
#   {"call":NAME,"args":[...]}                  main::NAME in list context: {"ok":[values]}
#   {"call":NAME,"args":[...],"want":"scalar"}  in scalar context: {"ok":value}
# or {"raise":"","message":TEXT} when it died (an object's class where it died with one).

package VerdictHost;
use strict;
use warnings;

sub answer {
    my ($line) = @_;
    my $out = eval {
        my $m = VerdictWire::parse($line);
        my @k = sort keys %$m;
        die "not a call\n" unless (@k == 2 || (@k == 3 && ($m->{want} // "") eq "scalar"))
            && defined $m->{call} && !ref $m->{call} && ref $m->{args} eq "ARRAY";
        my $f = $m->{call} =~ /\A[A-Za-z_][A-Za-z0-9_]*\z/ ? main->can($m->{call}) : undef;
        die "Undefined subroutine &main::$m->{call} called\n" unless $f;
        my $v = exists $m->{want} ? scalar($f->(@{$m->{args}})) : [$f->(@{$m->{args}})];
        "{\"ok\":" . VerdictWire::encode($v) . "}";
    };
    return $out if defined $out;
    my $e = $@;
    my $type = ref $e ? ref $e : "";
    my $text = eval { "" . $e } // "";
    return "{\"raise\":" . VerdictWire::encode_string($type) . ",\"message\":"
        . VerdictWire::encode_string(substr($text, 0, 2000)) . "}";
}

{
    open(my $in, "<&=", 3) or die "verdict host: no fd 3: $!\n";
    open(my $out, ">&=", 4) or die "verdict host: no fd 4: $!\n";
    binmode($in);
    binmode($out);
    $out->autoflush(1);
    local $/ = "\n";
    while (defined(my $line = <$in>)) {
        chomp $line;
        my $answer = answer($line);
        eval { STDOUT->flush };
        print {$out} $answer, "\n";
    }
}

1;
