#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""browser.py - report.html in Debian's headless chromium, driven through
chromedriver's W3C WebDriver protocol (plain HTTP and JSON, so the
standard library is the whole client).

    browser.py REPORT.html SHOTS_DIR

loads the page from its file:// URL, then, as a user would: reads the
console, checks every image decoded, clicks column headers of the worst
regressions' table (when there is one) and of a topology's every-pattern
table and reads the order back, follows a pattern's link and a timeline's link, and writes
screenshots (top.png, timeline.png) into SHOTS_DIR. Prints one JSON object
of what it saw; the test judges it. Exit 0 when the browser ran, 1 when it
could not be driven (said on stderr).
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'  # W3C's element key


class Driver:
    """A chromedriver process and one headless chromium session."""

    def __init__(self, profile):
        sock = socket.socket()
        sock.bind(('127.0.0.1', 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.proc = subprocess.Popen(
            ['chromedriver', '--port=%d' % self.port],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = 'http://127.0.0.1:%d' % self.port
        end = time.time() + 20
        while True:
            try:
                if self.call('GET', '/status')['ready']:
                    break
            except (OSError, urllib.error.URLError):
                pass
            if time.time() > end or self.proc.poll() is not None:
                raise RuntimeError('chromedriver did not start')
            time.sleep(0.1)
        caps = {'capabilities': {'alwaysMatch': {
            'browserName': 'chrome',
            'goog:chromeOptions': {
                'binary': shutil.which('chromium') or '/usr/bin/chromium',
                'args': ['--headless=new', '--no-sandbox', '--disable-gpu',
                         '--disable-dev-shm-usage', '--window-size=1400,1000',
                         '--user-data-dir=' + profile],
            },
            'goog:loggingPrefs': {'browser': 'ALL'},
        }}}
        self.sid = self.call('POST', '/session', caps)['sessionId']

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.load(r)['value']
        except urllib.error.HTTPError as e:
            raise RuntimeError('%s %s: %s' % (method, path, e.read().decode()[:300]))

    def s(self, method, path, body=None):
        return self.call(method, '/session/%s%s' % (self.sid, path), body)

    def js(self, script, *args):
        return self.s('POST', '/execute/sync', {'script': script, 'args': list(args)})

    def find(self, css):
        return self.s('POST', '/element', {'using': 'css selector', 'value': css})[ELEMENT]

    def click(self, css):
        el = self.find(css)
        self.js('arguments[0].scrollIntoView({block: "center"});', {ELEMENT: el})
        self.s('POST', '/element/%s/click' % el, {})

    def shot(self, path):
        with open(path, 'wb') as f:
            f.write(base64.b64decode(self.s('GET', '/screenshot')))

    def console(self):
        return self.s('POST', '/se/log', {'type': 'browser'})

    def quit(self):
        try:
            self.s('DELETE', '')
        finally:
            self.proc.terminate()
            self.proc.wait()


# one column of a table's body, in the order shown
COLUMN = '''
var t = document.querySelector(arguments[0]), col = arguments[1];
return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
    return r.cells[col].textContent.trim();
});
'''

# where an element is: in the viewport, and whether a <details> hides it
WHERE = '''
var e = document.getElementById(arguments[0]);
if (!e) return null;
var r = e.getBoundingClientRect(), closed = false;
for (var d = e.parentElement; d; d = d.parentElement)
    if (d.tagName === 'DETAILS' && !d.open) closed = true;
return {tag: e.tagName, top: r.top, height: r.height, inner: window.innerHeight,
        visible: !closed && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight,
        imgs: Array.prototype.map.call(e.querySelectorAll('img'), function (i) {
            return i.naturalWidth; })};
'''


def sort_clicks(d, table, col, header):
    """Click @header twice; the column @col as shown before and after each."""
    seen = {'before': d.js(COLUMN, table, col)}
    d.click(header)
    seen['first'] = d.js(COLUMN, table, col)
    seen['first_sort'] = d.js('return document.querySelector(arguments[0]).getAttribute("aria-sort");', header)
    d.click(header)
    seen['second'] = d.js(COLUMN, table, col)
    seen['second_sort'] = d.js('return document.querySelector(arguments[0]).getAttribute("aria-sort");', header)
    return seen


def follow(d, out, key, prefix):
    """Click the ranked table's first link to an id starting @prefix; into
    @out: its href (KEY, or KEY_link), the hash and where it landed."""
    name = key if key == 'link' else key + '_link'
    href = d.js('var a = document.querySelector("#regressions + table a[href^=\'' + prefix + '\']"); return a && a.getAttribute("href");')
    out[name] = href
    if href:
        d.click('#regressions + table a[href="%s"]' % href)
        out[key + '_hash'] = d.js('return location.hash;')
        out[key + '_target'] = d.js(WHERE, href[1:])
    return href


def main():
    page, shots = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix='lsb-chromium-')
    out = {}
    d = None
    try:
        d = Driver(profile)
        d.s('POST', '/url', {'url': 'file://' + page})
        out['url'] = d.js('return location.href;')
        out['title'] = d.js('return document.title;')
        out['h1'] = d.js('return document.querySelector("h1").textContent;')
        out['height'] = d.js('return document.body.scrollHeight;')
        out['images'] = d.js('return Array.prototype.map.call(document.images, function (i) { return [i.complete, i.naturalWidth, i.naturalHeight]; });')
        d.shot(os.path.join(shots, 'top.png'))
        # the worst regressions: by change (numbers), by pattern (text)
        t = '#regressions + table'
        if d.js('return !!document.querySelector(arguments[0]);', t):
            out['sort_change'] = sort_clicks(d, t, 6, t + ' thead th[data-col="6"]')
            out['sort_pattern'] = sort_clicks(d, t, 2, t + ' thead th[data-col="2"]')
        # a topology's every pattern: a second header row's column
        d.js('document.querySelector("details").open = true;')
        t = 'details table'
        out['sort_rows'] = sort_clicks(d, t, 2, t + ' thead th[data-col="2"]')
        d.js('document.querySelector("details").open = false;')
        # a ranked pattern's link, into the closed every-pattern table
        follow(d, out, 'link', '#p-')
        if follow(d, out, 'timeline', '#tl-'):
            d.shot(os.path.join(shots, 'timeline.png'))
        time.sleep(0.2)
        out['console'] = d.console()
    except Exception as e:  # the harness, not the page: say so, exit 1
        print('browser.py: %s' % e, file=sys.stderr)
        return 1
    finally:
        if d:
            d.quit()
        shutil.rmtree(profile, ignore_errors=True)
    print(json.dumps(out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
