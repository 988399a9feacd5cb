# verdict's grader for Perl harnesses (languages/wire.md, docs/integrity.md); wire.pl comes
# before it, and the bootstrap in perl.json evaluates both. It runs in a process of its own,
# as another uid than the program (runners/job.h), with the tests on its stdin: the program
# can neither read the tests nor reach this process. The tests run here with the real
# Test::Deep; the entry point is a sub of package main here that sends the call to the
# program (fd 4), in the caller's context, and decodes its answer (fd 3) into plain Perl
# values. Whatever the program does (exit, END blocks, POSIX::_exit, an eq_deeply of its own),
# it can only answer calls.
#
# @VERDICT_ARGS (from the bootstrap): the tests, the setup (unused), the entry point.
# Exit status: 0 the tests ran to their end (or called exit 0) with no failure; 1 a check
# failed (the tests exit non-zero or die, or Test::More counted a failure); 2 the program broke
# a call (it died, exited, closed the channel or answered out of protocol). `exit` in the tests
# unwinds to here, so that this decides the status, after every END block of theirs.

package VerdictGrader;
use strict;
use warnings;

our ($broken, $raised, $status);
my ($in, $out);
open($in, "<&=", 3) or die "verdict grader: no fd 3: $!\n";
open($out, ">&=", 4) or die "verdict grader: no fd 4: $!\n";
binmode($in);
binmode($out);
$out->autoflush(1);

sub broke {
    $broken //= $_[0];
    die "verdict grader: $broken\n";
}

# The entry point's call: a list in list context, else one value.
sub call {
    my ($name, $list, @args) = @_;
    die "verdict grader: $broken\n" if defined $broken;
    my $msg = "{\"call\":" . VerdictWire::encode_string($name) . ",\"args\":" . VerdictWire::encode(\@args)
        . ($list ? "" : ",\"want\":\"scalar\"") . "}\n";
    local $SIG{PIPE} = "IGNORE";
    print {$out} $msg or broke("the program stopped serving (it exited or closed its channel)");
    local $/ = "\n";
    my $line = "";
    while (length($line) < $VerdictWire::LINE_MAX) {
        my $n = sysread($in, my $chunk, 65536);   # never more than one answer is waiting
        last unless $n;
        $line .= $chunk;
        last if substr($chunk, -1) eq "\n";
    }
    broke(length($line) >= $VerdictWire::LINE_MAX ? "the program's answer is too long"
          : "the program stopped serving (it exited or closed its channel)") unless $line =~ s/\n\z//;
    my $m = eval { VerdictWire::parse($line) };
    broke("the program answered with what is not a value") unless $m;
    my @k = sort keys %$m;
    if (@k == 1 && $k[0] eq "ok") {
        return $m->{ok} unless $list;
        broke("the program answered a list call with what is not a list") unless ref $m->{ok} eq "ARRAY";
        return @{$m->{ok}};
    }
    if (@k == 2 && $k[0] eq "message" && $k[1] eq "raise" && defined $m->{raise} && !ref $m->{raise}
        && defined $m->{message} && !ref $m->{message}) {
        $raised = 1;
        my $text = $m->{message};
        die $text =~ /\n\z/ ? $text : "$text\n";
    }
    broke("the program answered out of protocol");
}

sub define_entry {
    my ($entry) = @_;
    return unless defined $entry && $entry =~ /\A[A-Za-z_][A-Za-z0-9_]*\z/;
    no strict "refs";
    no warnings "redefine";
    *{"main::$entry"} = sub { VerdictGrader::call($entry, wantarray, @_) };
}

sub verdict {
    my ($passed) = @_;
    return 2 if defined $broken;
    if ($passed && $INC{"Test/Builder.pm"}) {
        my $tb = Test::Builder->new;
        $passed = 0 unless $tb->is_passing;
    }
    return 0 if $passed;
    return $raised ? 2 : 1;
}

END { $? = $status if defined $status }    # compiled before the tests: the last END to run

package main;
{
    my ($tests, undef, $entry) = @main::VERDICT_ARGS;
    @main::VERDICT_ARGS = ();
    VerdictGrader::define_entry($entry);
    no warnings "once";
    *CORE::GLOBAL::exit = sub { die bless({code => $_[0] // 0}, "VerdictGrader::Exit") };
    my $ok = eval "package main;\n#line 1 \"tests\"\n$tests;\n1;";
    my $err = $@;
    my $passed = $ok ? 1 : 0;
    if (!$ok && ref $err eq "VerdictGrader::Exit") {
        $passed = $err->{code} == 0;
    } elsif (!$ok) {
        print STDERR $err;
    }
    $VerdictGrader::status = VerdictGrader::verdict($passed);
    print STDERR "verdict grader: $VerdictGrader::broken\n" if defined $VerdictGrader::broken;
    STDOUT->flush;
    CORE::exit($VerdictGrader::status);
}
