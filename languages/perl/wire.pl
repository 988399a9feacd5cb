# verdict's typed wire in Perl (languages/wire.md), for the grader (grader.pl) and the host
# (host.pl). encode writes a scalar by its flags, as Perl last made it: a string as a string, an
# integer as an integer, a float with its fraction and 17 digits, undef as null; array and hash
# references as lists and maps; anything else (code, globs, objects) cannot cross. Output is
# ASCII: every character past 0x7e is a \u escape, so a string of bytes and one of characters
# arrive as the same characters (Perl's `eq` sees no difference either). decode is a small
# parser of its own (no JSON module to load: JSON::PP costs twice Perl's start) that accepts
# exactly the wire's grammar and builds only plain values: it never evaluates what it reads.

package VerdictWire;
use strict;
use warnings;
no warnings 'recursion';
use B ();
use Scalar::Util ();

our $DEPTH    = 100;        # nesting levels a value may have
our $LINE_MAX = 64 << 20;   # bytes of one message

my %esc = ("\"" => "\\\"", "\\" => "\\\\", "\n" => "\\n", "\r" => "\\r", "\t" => "\\t");

sub encode_string {
    my ($s) = @_;
    $s =~ s/(["\\\n\r\t])/$esc{$1}/g;
    $s =~ s/([^\x20-\x7e])/_u(ord $1)/ge;
    return "\"$s\"";
}

sub _u {
    my ($c) = @_;
    return sprintf("\\u%04x", $c) if $c < 0x10000;
    die "a character past U+10FFFF cannot cross\n" if $c > 0x10ffff;
    $c -= 0x10000;
    return sprintf("\\u%04x\\u%04x", 0xd800 | ($c >> 10), 0xdc00 | ($c & 0x3ff));
}

sub encode {
    my ($v, $depth) = @_;
    $depth //= 0;
    die "value nested too deeply\n" if $depth > $DEPTH;
    my $d = $depth + 1;
    return "null" unless defined $v;
    if (ref $v) {
        die "an object cannot cross to the grader\n" if defined Scalar::Util::blessed($v);
        my $t = Scalar::Util::reftype($v);
        return "[" . join(",", map { encode($_, $d) } @$v) . "]" if $t eq "ARRAY";
        return "{\"map\":[" . join(",", map { "[" . encode_string($_) . "," . encode($v->{$_}, $d) . "]" }
                                       sort keys %$v) . "]}" if $t eq "HASH";
        die "a " . ref($v) . " reference cannot cross to the grader\n";
    }
    my $f = B::svref_2object(\$v)->FLAGS;
    unless ($f & B::SVp_POK) {
        return "$v" if $f & B::SVp_IOK;
        return encode_float($v) if $f & B::SVp_NOK;
    }
    return encode_string("$v");
}

sub encode_float {
    my ($x) = @_;
    return "{\"float\":\"nan\"}" if $x != $x;
    return $x > 0 ? "{\"float\":\"inf\"}" : "{\"float\":\"-inf\"}" if $x * 0 != 0;
    my $s = sprintf("%.17g", $x);
    $s .= ".0" unless $s =~ /[.e]/;
    return $s;
}

# ---- decoding: text of one message (bytes of UTF-8) into a hash of its members' values ------

sub _fail { die "not a value of the wire\n" }

sub _ws { ${$_[0]} =~ /\G[ \t\r\n]+/gc }  # never an empty match: that would stop the next one

sub _string {
    my ($r) = @_;
    ${$r} =~ /\G"((?:[^"\\\x00-\x1f]|\\(?:["\\\/bfnrt]|u[0-9a-fA-F]{4}))*)"/gc or _fail();
    my $s = $1;
    return $s unless $s =~ /\\/;
    my %un = ('"' => '"', '\\' => '\\', '/' => '/', b => "\b", f => "\f", n => "\n", r => "\r", t => "\t");
    $s =~ s/\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})/chr(0x10000 + ((hex($1) - 0xd800) << 10) + hex($2) - 0xdc00)/ge;
    $s =~ s/\\(?:u([0-9a-fA-F]{4})|(.))/defined $1 ? chr(hex $1) : $un{$2}/ge;
    return $s;
}

# The members of an object: [key, value] pairs, in order.
sub _members {
    my ($r, $depth) = @_;
    my @m;
    _ws($r);
    return \@m if ${$r} =~ /\G\}/gc;
    while (1) {
        _ws($r);
        my $k = _string($r);
        _ws($r);
        ${$r} =~ /\G:/gc or _fail();
        push @m, [$k, _value($r, $depth)];
        _ws($r);
        next if ${$r} =~ /\G,/gc;
        ${$r} =~ /\G\}/gc or _fail();
        return \@m;
    }
}

sub _list {
    my ($r, $depth) = @_;
    my @l;
    _ws($r);
    return \@l if ${$r} =~ /\G\]/gc;
    while (1) {
        push @l, _value($r, $depth);
        _ws($r);
        next if ${$r} =~ /\G,/gc;
        ${$r} =~ /\G\]/gc or _fail();
        return \@l;
    }
}

sub _value {
    my ($r, $depth) = @_;
    die "value nested too deeply\n" if $depth > $DEPTH;
    my $d = $depth + 1;
    _ws($r);
    return _list($r, $d) if ${$r} =~ /\G\[/gc;
    if (${$r} =~ /\G\{/gc) {
        my $m = _members($r, $d);
        _fail() unless @$m == 1;
        my ($k, $x) = @{$m->[0]};
        if ($k eq "map" && ref $x eq "ARRAY") {
            my %h;
            for my $p (@$x) {
                _fail() unless ref $p eq "ARRAY" && @$p == 2 && defined $p->[0] && !ref $p->[0];
                $h{$p->[0]} = $p->[1];
            }
            return \%h;
        }
        return $x if ($k eq "tuple" || $k eq "set") && ref $x eq "ARRAY";
        return $x if $k eq "char" && defined $x && !ref $x && length($x) == 1;
        if ($k eq "float" && defined $x && !ref $x) {
            return 9**9**9 if $x eq "inf";
            return -9**9**9 if $x eq "-inf";
            return -sin(9**9**9) if $x eq "nan";
        }
        _fail();
    }
    return _string($r) if substr(${$r}, pos(${$r}), 1) eq '"';
    return 0 + $1 if ${$r} =~ /\G(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)/gc;
    return !!1 if ${$r} =~ /\Gtrue/gc;
    return !!0 if ${$r} =~ /\Gfalse/gc;
    return undef if ${$r} =~ /\Gnull/gc;
    _fail();
}

# One message (a line without its newline) into {member => value}, or die.
sub parse {
    my ($line) = @_;
    utf8::decode($line) or _fail();
    my $r = \$line;
    pos($line) = 0;
    _ws($r);
    $line =~ /\G\{/gc or _fail();
    my $m = _members($r, 0);
    _ws($r);
    _fail() unless pos($line) == length($line);
    my %h;
    for (@$m) {
        _fail() if exists $h{$_->[0]};
        $h{$_->[0]} = $_->[1];
    }
    return \%h;
}

1;
