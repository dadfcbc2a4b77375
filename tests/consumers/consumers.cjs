// Opens kubectl-topo's picture outputs in their real consumers and prints what they saw as JSON
// (the Rust test asserts on it):
//   node consumers.cjs html OUT.json [--screenshot PNG] FILE.html...
//     headless Chromium (Debian's, through playwright-core): per file the Service sections, the
//     routing bands per state, console errors, page errors, any network request (a self-contained
//     page makes none), the load time and the time to the first frame after load (BENCHMARKS.md).
//   node consumers.cjs mermaid OUT.json FILE.mmd...
//     Mermaid's own parser and renderer (the npm package's browser bundle, in the same Chromium).
// NODE_PATH must name the node_modules that tests/consumers/install.sh prints.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function browser() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'kubectl-topo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ARGS,
    viewport: { width: 1180, height: 900 },
    deviceScaleFactor: 1,
  });
  return { context, profile };
}

function watch(page) {
  const seen = { consoleErrors: [], pageErrors: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') seen.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => seen.pageErrors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith('file:')) seen.requests.push(r.url()); });
  return seen;
}

async function html(context, files, screenshot) {
  const results = [];
  for (const file of files) {
    const page = await context.newPage();
    const seen = watch(page);
    const start = Date.now();
    await page.goto('file://' + path.resolve(file), { waitUntil: 'load', timeout: 300000 });
    const loadMs = Date.now() - start;
    // Time from navigation start to the first frame painted after load (layout included).
    const renderMs = await page.evaluate(() => new Promise((done) =>
      requestAnimationFrame(() => requestAnimationFrame(() => done(Math.round(performance.now()))))));
    const dom = await page.evaluate(() => ({
      sections: document.querySelectorAll('section.service').length,
      families: document.querySelectorAll('article.family').length,
      bandsNow: document.querySelectorAll('path.band[data-state="now"]').length,
      bandsExpected: document.querySelectorAll('path.band[data-state="expected"]').length,
      scripts: document.querySelectorAll('script').length,
      rows: document.querySelectorAll('tr.row').length,
      links: [...document.querySelectorAll('a[href^="#"]')].filter((a) => document.getElementById(a.getAttribute('href').slice(1))).length,
      title: document.title,
      // Pairs of labels of one routing picture whose drawn boxes intersect (texts Chromium laid out).
      labelOverlaps: [...document.querySelectorAll('svg.bands')].reduce((sum, svg) => {
        const boxes = [...svg.querySelectorAll('text')].map((t) => t.getBoundingClientRect()).filter((b) => b.width > 0);
        let n = 0;
        boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) n += 1;
        }));
        return sum + n;
      }, 0),
    }));
    if (screenshot) {
      await page.screenshot({ path: screenshot, fullPage: true });
      screenshot = null;
    }
    results.push({ file, loadMs, renderMs, ...dom, ...seen });
    await page.close();
  }
  return results;
}

async function mermaid(context, files) {
  const page = await context.newPage();
  const seen = watch(page);
  await page.setContent('<!DOCTYPE html><html><body></body></html>');
  const bundle = require.resolve('mermaid/dist/mermaid.min.js');
  await page.addScriptTag({ path: bundle });
  await page.evaluate(() => window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' }));
  const results = [];
  for (const [i, file] of files.entries()) {
    const text = fs.readFileSync(file, 'utf8');
    const r = await page.evaluate(async ([text, id]) => {
      try {
        const parsed = await window.mermaid.parse(text);
        const { svg } = await window.mermaid.render(id, text);
        return { ok: !!parsed, svgBytes: svg.length, edges: (svg.match(/class="[^"]*flowchart-link/g) || []).length };
      } catch (e) {
        return { ok: false, error: String(e && e.message || e) };
      }
    }, [text, 'm' + i]);
    results.push({ file, ...r });
  }
  results.forEach((r) => { r.consoleErrors = seen.consoleErrors; r.pageErrors = seen.pageErrors; });
  return results;
}

async function main() {
  const [mode, out, ...rest] = process.argv.slice(2);
  let screenshot = null;
  if (rest[0] === '--screenshot') { screenshot = rest[1]; rest.splice(0, 2); }
  const { context, profile } = await browser();
  try {
    const results = mode === 'html' ? await html(context, rest, screenshot) : await mermaid(context, rest);
    fs.writeFileSync(out, JSON.stringify(results, null, 1));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
