#!/usr/bin/env perl
# SPDX-License-Identifier: GPL-2.0-only
#
# systrace-import.pl TRACE: read an ftrace text trace as Perfetto's trace
# processor's systrace importer does, written from its sources
# (src/trace_processor/util/trace_type.cc, importers/systrace/
# systrace_trace_parser.cc, systrace_line_tokenizer.cc,
# systrace_line_parser.cc, systrace_parser.h) for the test of our traces
# (t/0715-perfetto.sh): no Perfetto trace processor is packaged for Debian
# or npm.
#
# Prints what it imported, one "KEY VALUE" line each:
#   lines N, rejected N            event lines, and those the importer drops
#   slices cpuC N                  sched slices of CPU C (one per sched_switch
#                                  there: each ends the CPU's open slice)
#   counter NAME N                 samples of a counter track, by its name
#   cpu_frequency cpuC N, cpu_idle cpuC N   samples of those CPU tracks
#   events EVENT N                 lines of each event
# and each rejected line on standard error with its number and why.
# Exit status: 0 when every line imported, 1 when one did not, 2 when the
# file is not one the importer takes as systrace.
use strict;
use warnings;

my $path = shift or die "usage: systrace-import.pl TRACE\n";
open(my $fh, '<', $path) or die "systrace-import.pl: $path: $!\n";

# trace_type.cc: a text trace is systrace when "# tracer" is in its first
# kGuessTraceMaxLookahead bytes (or "TRACE:\n", or a leading space)
my $head = '';
read($fh, $head, 1024);
unless ($head =~ /# tracer/ || $head =~ /TRACE:\n/ || $head =~ /^ /) {
	print STDERR "$path: not a systrace text trace (no '# tracer' in its first 1024 bytes)\n";
	exit 2;
}
seek($fh, 0, 0);

# systrace_line_tokenizer.cc: TASK-PID, an optional (TGID), [CPU], up to
# four flag characters (the strictest version of its regex: later ones
# take five or make the flags optional), SEC.FRAC: and the event name
my $line_re = qr/-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*[a-zA-Z0-9.]{0,4}\s+(\d+\.\d+):\s+(\S+):/;

my (%slices, %counter, %freq, %idle, %events);
my ($nr, $rejected, $n) = (0, 0, 0);

sub reject {
	my ($why, $text) = @_;
	$rejected++;
	print STDERR "$path:$n: $why: $text\n" if $rejected <= 20;
}

# base::StringToUInt32 / StringToInt32 / StringToInt64 / StringToDouble:
# the whole string is the number
sub uint32 { my $v = shift; defined $v && $v =~ /^\d+$/ && $v <= 4294967295 }
sub int32 { my $v = shift; defined $v && $v =~ /^-?\d+$/ && abs($v) <= 2147483648 }
sub int64 { my $v = shift; defined $v && $v =~ /^-?\d{1,18}$/ }
sub double { my $v = shift; defined $v && $v =~ /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/ }

# systrace_line_parser.cc: the args, split on spaces; a token without '='
# is "name", otherwise its first '='-separated piece the key, its last the
# value (empty pieces skipped, as base::StringSplitter does)
sub args {
	my %a;
	for my $tok (grep { length } split / /, shift) {
		if ($tok !~ /=/) {
			$a{name} = $tok;
			next;
		}
		my @p = grep { length } split /=/, $tok;
		$a{$p[0] // ''} = @p > 1 ? $p[-1] : '';
	}
	return %a;
}

# systrace_parser.h, ParseSystraceTracePoint(): B|TGID|NAME, E, C|TGID|NAME|
# VALUE[|CATEGORY], S/F|TGID|NAME|COOKIE, I|TGID|NAME; fields split on '|'
sub print_event {
	my ($text) = @_;
	$text =~ s/[\n\0]+$//;
	my @f = split /\|/, $text, -1;
	my $phase = substr($f[0] // '', 0, 1);
	return 'empty' if $phase eq '';
	my $has_tgid = uint32($f[1]);
	if ($phase eq 'C') {
		return 'counter without a TGID, a name or an integer value'
			unless $has_tgid && length($f[2] // '') && int64($f[3]);
		$counter{$f[2]}++;
		return;
	}
	return if $phase eq 'E';
	return 'slice without a TGID' if $phase eq 'B' && !$has_tgid;
	return if $phase eq 'B';
	if ($phase eq 'S' || $phase eq 'F') {
		return 'async slice without a TGID, a name or a cookie'
			unless $has_tgid && length($f[2] // '') && int64($f[3]);
		return;
	}
	if ($phase eq 'I') {
		return 'instant without a TGID or a name'
			unless $has_tgid && length($f[2] // '');
		return;
	}
	return "unknown phase '$phase'";
}

while (my $text = <$fh>) {
	$n++;
	chomp $text;
	# systrace_trace_parser.cc: a first line cpus=N (trace-cmd report) and
	# every '#' or empty line are not events
	next if $text eq '' || $text =~ /^#/ || ($n == 1 && $text =~ /^cpus=\d+$/);
	$nr++;
	unless ($text =~ $line_re) {
		reject('not a known systrace event format', $text);
		next;
	}
	my ($pid, $cpu, $ts, $event) = ($1, $3 + 0, $4, $5);
	my $rest = $';
	$rest =~ s/^\s+|\s+$//g;
	unless (uint32($pid) && uint32($cpu) && double($ts)) {
		reject('pid, cpu or timestamp', $text);
		next;
	}
	$events{$event}++;
	my %a = args($rest);
	my $why;
	if ($event eq 'sched_switch') {
		# FtraceSchedEventTracker::PushSchedSwitch(): a slice per switch
		if (uint32($a{prev_pid}) && int32($a{prev_prio}) &&
		    uint32($a{next_pid}) && int32($a{next_prio}) &&
		    defined $a{prev_state} && defined $a{prev_comm} &&
		    defined $a{next_comm}) {
			$slices{$cpu}++;
		} else {
			$why = 'could not parse sched_switch';
		}
	} elsif ($event eq 'tracing_mark_write' || $event eq '0' ||
		 $event eq 'print') {
		$why = print_event($rest);
	} elsif ($event eq 'sched_waking' || $event eq 'sched_wakeup' ||
		 $event eq 'sched_wakeup_new') {
		# the importer reads sched_waking (comm, pid); we hold
		# sched_wakeup(_new) to the same fields and target_cpu
		$why = "could not convert ${event}'s pid or target_cpu"
			unless uint32($a{pid}) && defined $a{comm} &&
			       uint32($a{target_cpu});
	} elsif ($event eq 'cpu_frequency' || $event eq 'cpu_idle') {
		if (uint32($a{cpu_id}) && double($a{state})) {
			($event eq 'cpu_idle' ? \%idle : \%freq)->{$a{cpu_id}}++;
		} else {
			$why = "could not convert ${event}'s cpu_id or state";
		}
	} elsif ($event eq 'sched_migrate_task') {
		# not read by the systrace importer (its ftrace one reads these)
		$why = 'could not convert sched_migrate_task\'s fields'
			unless uint32($a{pid}) && uint32($a{orig_cpu}) &&
			       uint32($a{dest_cpu}) && int32($a{prio});
	}
	reject($why, $text) if $why;
}
close($fh);

print "lines $nr\n";
print "rejected $rejected\n";
print "slices cpu$_ $slices{$_}\n" for sort { $a <=> $b } keys %slices;
print "cpu_frequency cpu$_ $freq{$_}\n" for sort { $a <=> $b } keys %freq;
print "cpu_idle cpu$_ $idle{$_}\n" for sort { $a <=> $b } keys %idle;
print "counter $_ $counter{$_}\n" for sort keys %counter;
print "events $_ $events{$_}\n" for sort keys %events;
exit($rejected ? 1 : 0);
