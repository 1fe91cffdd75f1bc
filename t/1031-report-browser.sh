#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# report.html in a browser: Debian's headless chromium, driven through
# chromedriver (t/browser.py), loads a quick report over t/1030's
# load-balancing regression from its file:// URL. The page renders with
# every embedded image decoded and no console message; a click on a
# column header sorts its table (numbers as numbers, read back), again the
# other way; a ranked pattern's link opens and shows its row in the
# collapsed every-pattern table; the timelines of the worst regressions,
# OLD beside NEW, are in the one file, titled by the pattern's short name;
# screenshots are written.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history.sh"

command -v chromium >/dev/null && command -v chromedriver >/dev/null ||
	skip_all "chromium or chromedriver missing (make deps)"
ensure_kernels
plan 9
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

work=$tmp/work
git clone -q --shared "$LSBISECT_REPO" "$work"
# t/1030's history: the same commits, so the same builds
make_history "$work" "note lb hdr" 1 > /dev/null
"$LINSCHED" report "$TEST_V61" bad --repo "$work" --suite full --match 'hog-*' \
	--topology numa-2 --seeds 1 --duration 1s --timelines 2 --out "$tmp/r" \
	> "$tmp/r.out" 2> "$tmp/r.err"
status=$?
page=$tmp/r/report.html
k=$(json "$tmp/r/report.json" "r['regressions'] > 0")
test_expect_success "a quick report over the regression: exit 1, regressions ranked (status $status)" \
	'[ $status = 1 ] && [ "$k" = True ] && [ -s "$page" ]'

# the page alone: its timelines embedded, nothing from elsewhere
k=$(python3 - "$tmp/r" <<'PY'
import base64, glob, json, re, sys
d = sys.argv[1]
doc = open(d + '/report.html').read()
secs = re.findall(r'<section class="timeline" id="(tl-[^"]*)">(.*?)</section>', doc, re.S)
pngs = sorted(glob.glob(d + '/timelines/*/timeline.png'))
emb = all('data:image/png;base64,' + base64.b64encode(open(p, 'rb').read()).decode() in doc for p in pngs)
outside = re.findall(r'(?:src|href)="(?!#|data:|plots/|timelines/)[^"]*"', doc)
j = json.load(open(d + '/report.json'))['timelines']
listed = sorted(d + '/' + t[s] for t in j for s in ('old', 'new'))
print(len(secs) == 2 and len(pngs) == 4 and emb and all(s.count('<img ') == 2 for _, s in secs) and not outside and
      listed == pngs and [t['pattern'] for t in j] == [i[len('tl-numa-2-'):] for i, _ in secs])
PY
)
test_expect_success "2 timeline sections, OLD beside NEW, their 4 PNGs embedded byte for byte and listed in report.json; no resource from elsewhere" \
	'[ "$k" = True ]'
n=$(grep -lx "set title \"Linux [0-9.]* on numa-2: hog-[^ /]*-cpus (seed 1)\"" "$tmp"/r/timelines/*/timeline.gp | wc -l)
test_expect_success "each timeline's title names its pattern by its short name, not its file ($n of 4)" \
	'[ "$n" = 4 ]'

python3 "$LSB_ROOT/t/browser.py" "$page" "$tmp/shots" > "$tmp/b.json" 2> "$tmp/b.err"
status=$?
sed 's/^/# /' "$tmp/b.err"
b() { json "$tmp/b.json" "$@"; }
test_expect_success "chromium loads the page (status $status): $(b "r['title']" 2>/dev/null)" \
	'[ $status = 0 ] && [ "$(b "r[\"h1\"].startswith(\"linsched report: \") and r[\"height\"] > 1500")" = True ]'
test_expect_success "every image decodes ($(b "len(r['images'])") images, the smallest $(b "min(i[1] for i in r['images'])") px wide); the console is empty ($(b "len(r['console'])") messages)" \
	'[ "$(b "len(r[\"images\"]) == 2 + 4 and all(c and w > 100 and h > 100 for c, w, h in r[\"images\"]) and r[\"console\"] == []")" = True ]'

# a column of numbers, as shown: ascending after a click, descending after
# a second, numbers before the rest ('-') both ways
sorted_ok() {
	python3 - "$tmp/b.json" "$1" "$2" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))[sys.argv[2]]
kind = sys.argv[3]
def key(v):
    return float(v.rstrip('%')) if re.match(r'^[-+]?\d', v) else None
def ordered(col, rev):
    if kind == 'text':
        return col == sorted(col, reverse=rev)
    nums = [key(v) for v in col]
    k = [n for n in nums if n is not None]
    return nums[:len(k)] == sorted(k, reverse=rev) and len(set(nums)) > 1
ok = (r['first_sort'], r['second_sort']) == ('ascending', 'descending') and \
    ordered(r['first'], False) and ordered(r['second'], True) and \
    sorted(r['before']) == sorted(r['first']) == sorted(r['second'])
if len(sys.argv) > 4:   # a text sort would have put them otherwise
    ok = ok and r['first'] != sorted(r['first'])
print('# %s: %s -> %s -> %s' % (sys.argv[2], r['before'][:6], r['first'][:6], r['second'][:6]))
sys.exit(0 if ok else 1)
PY
}
sorted_ok sort_change num
ok $? "a click on the worst regressions' 'change' header sorts it ascending by number, a second descending"
sorted_ok sort_pattern text && sorted_ok sort_rows num strict
ok $? "the same by pattern name, and by OLD's balance score in the every-pattern table (its second header row; 1e+06 after 9e+05, as text would not)"

k=$(b "r['link'] and r['link_hash'] == r['link'] and r['link_target']['tag'] == 'TR' and r['link_target']['visible'] and r['timeline_hash'] == r['timeline_link'] and r['timeline_target']['tag'] == 'SECTION' and r['timeline_target']['visible'] and len(r['timeline_target']['imgs']) == 2 and min(r['timeline_target']['imgs']) > 100")
test_expect_success "a ranked pattern's link opens its collapsed row and shows it ($(b "r['link']")); its timelines link shows both ($(b "r['timeline_link']"))" \
	'[ "$k" = True ]'

bad=
for s in top timeline; do
	size=$(python3 -c 'import struct, sys; print("%dx%d" % struct.unpack(">II", open(sys.argv[1], "rb").read(24)[16:]))' "$tmp/shots/$s.png" 2>/dev/null)
	c=$(png_check "$tmp/shots/$s.png" "$size")
	[ "${c:-0}" -gt 20 ] || bad="$bad $s.png($c)"
done
[ -n "${LSB_KEEP_SHOTS:-}" ] && cp "$tmp"/shots/*.png "$LSB_KEEP_SHOTS"/
test_expect_success "screenshots of the page's top and of a timeline section, many colours${bad:+ (bad:$bad)}" \
	'[ -z "$bad" ]'

done_testing
