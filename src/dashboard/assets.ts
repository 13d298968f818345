/**
 * The dashboard's only assets, served from these strings: no CDN, no build step, nothing fetched
 * from elsewhere, so it works on an air-gapped host. Colours keep text at 4.5:1 or more.
 */

export const CSS = `
:root { --fg: #1b1f24; --muted: #4a5360; --bg: #ffffff; --panel: #f4f6f8; --line: #cfd6de; --link: #0a58ca; --focus: #b35900;
  --queued: #e3ecff; --scheduled: #efe6ff; --picked: #e0f4e8; --held: #ffe4e0; --danger: #a4161a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--fg); color: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 10; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .5rem 1.25rem; background: var(--panel); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; letter-spacing: .02em; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: 0; }
nav a { display: block; padding: .35rem .7rem; border-radius: 6px; text-decoration: none; }
nav a[aria-current="page"] { background: var(--fg); color: #fff; }
.live { margin-left: auto; color: var(--muted); font-size: .9em; }
.badge { border: 1px solid var(--muted); border-radius: 999px; padding: 0 .6rem; font-size: .85em; }
main { max-width: 1240px; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.45rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: .75rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .6rem .8rem; }
.card .n { display: block; font-size: 1.6rem; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .k { color: var(--muted); font-size: .9em; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 1rem; }
.chart { margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: .6rem; }
.chart svg { width: 100%; height: auto; display: block; }
.chart rect { fill: #2f6fbd; }
.chart .axis { stroke: var(--muted); }
.chart figcaption { color: var(--muted); font-size: .9em; margin-top: .3rem; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; padding: .35rem .55rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
.num { text-align: right; }
.state { border-radius: 4px; padding: 0 .4rem; font-size: .9em; }
.state-queued { background: var(--queued); } .state-scheduled { background: var(--scheduled); }
.state-picked { background: var(--picked); } .state-held, .state-failed { background: var(--held); }
.foreign { border: 1px dashed var(--muted); border-radius: 4px; padding: 0 .35rem; font-size: .85em; }
.empty { color: var(--muted); }
.nowrap { white-space: nowrap; }
.flash { background: #fff7d6; border: 1px solid #d9b100; border-radius: 6px; padding: .5rem .75rem; }
form.inline { display: inline; }
form.filters { display: flex; flex-wrap: wrap; gap: .75rem; align-items: end; margin-bottom: 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: .9em; color: var(--muted); }
input, select, button { font: inherit; }
input, select { padding: .3rem .4rem; border: 1px solid var(--muted); border-radius: 4px; background: #fff; color: var(--fg); }
button { padding: .3rem .75rem; border: 1px solid var(--fg); border-radius: 4px; background: var(--fg); color: #fff; cursor: pointer; }
button.danger { background: var(--danger); border-color: var(--danger); }
button:disabled { opacity: .5; cursor: not-allowed; }
.bar { display: flex; gap: .5rem; margin: .5rem 0; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem; overflow: auto; max-height: 24rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { color: var(--muted); }
ol.feed { list-style: none; padding: 0; margin: 0; max-height: 16rem; overflow: auto; }
ol.feed li { padding: .2rem 0; border-bottom: 1px solid var(--line); }
.pager { margin-top: .75rem; }
.chart .grid { stroke: var(--line); stroke-dasharray: 3 3; }
.chart .tick { fill: var(--muted); font-size: 10px; }
nav.tabs ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0 0 1rem; padding: 0; border-bottom: 1px solid var(--line); }
nav.tabs a { display: block; padding: .35rem .8rem; text-decoration: none; border: 1px solid transparent; border-bottom: none; border-radius: 6px 6px 0 0; }
nav.tabs a[aria-current="true"] { border-color: var(--line); background: var(--panel); color: var(--fg); font-weight: 600; }
nav.tabs .count { font-variant-numeric: tabular-nums; color: var(--muted); }
a.button { display: inline-block; padding: .3rem .75rem; border: 1px solid var(--fg); border-radius: 4px; background: var(--fg); color: #fff; text-decoration: none; }
a.button.danger { background: var(--danger); border-color: var(--danger); }
.bulk { align-items: center; flex-wrap: wrap; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; }
.confirm { background: #fff7d6; border: 1px solid #d9b100; border-radius: 6px; padding: .6rem .8rem; }
.error-line { white-space: pre-wrap; overflow-wrap: anywhere; }
.list { overflow-wrap: anywhere; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 32rem; }
.traceback p { margin: 0 0 .3rem; }
`

export const JS = `
(() => {
  const status = document.getElementById('live-status');
  const setPath = (obj, path) => path.split('.').reduce((o, k) => (o == null ? o : o[k]), obj);
  const fmt = (v) => (typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 1 }) : String(v));
  const feed = document.getElementById('completions');
  // Tables that follow the queue: on a pulse that changed a count, the page is read again and
  // each [data-live-region] swapped for its new self, unless the operator is selecting in it.
  const regions = document.querySelectorAll('[data-live-region]');
  let lastSign = null;
  let refreshing = false;
  const refresh = async () => {
    if (refreshing) return;
    refreshing = true;
    try {
      const res = await fetch(location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } });
      if (!res.ok) return;
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      document.querySelectorAll('[data-live-region]').forEach((el) => {
        if (el.querySelector('input:checked') || el.contains(document.activeElement)) return;
        const fresh = doc.querySelector('[data-live-region="' + el.dataset.liveRegion + '"]');
        if (fresh) { el.className = fresh.className; el.innerHTML = fresh.innerHTML; }
      });
    } catch (e) { /* the next pulse tries again */ } finally { refreshing = false; }
  };
  const connect = () => {
    const es = new EventSource('/events');
    es.onopen = () => { status.textContent = 'live'; status.dataset.state = 'live'; };
    es.onerror = () => { status.textContent = 'reconnecting…'; status.dataset.state = 'down'; };
    es.addEventListener('trouble', (ev) => { status.textContent = 'database trouble: ' + JSON.parse(ev.data).message; });
    es.addEventListener('pulse', (ev) => {
      const p = JSON.parse(ev.data);
      document.querySelectorAll('[data-live]').forEach((el) => {
        const v = setPath(p, el.dataset.live);
        if (v !== undefined && v !== null) el.textContent = fmt(v);
      });
      document.querySelectorAll('[data-chart]').forEach((el) => {
        const svg = p.charts && p.charts[el.dataset.chart];
        if (svg) el.innerHTML = svg;
      });
      if (feed && p.completions) {
        for (const c of p.completions) {
          const li = document.createElement('li');
          li.dataset.jobId = c.jobId;
          const a = document.createElement('a');
          a.href = '/jobs/' + c.jobId;
          a.textContent = 'job ' + c.jobId;
          li.append(a, ' ' + c.entrypoint + ' ' + c.status + ' at ' + c.created.slice(11, 19) + 'Z');
          feed.prepend(li);
        }
        while (feed.children.length > 30) feed.lastElementChild.remove();
        const none = document.getElementById('completions-none');
        if (none && feed.children.length) none.remove();
      }
      status.textContent = 'live · ' + p.generatedAt.slice(11, 19) + 'Z';
      const sign = JSON.stringify([p.states, p.totals, p.workersAlive]);
      if (regions.length && (sign !== lastSign || (p.completions && p.completions.length))) refresh();
      lastSign = sign;
    });
  };
  if (window.EventSource) connect();
  document.querySelectorAll('form[data-confirm]').forEach((f) =>
    f.addEventListener('submit', (e) => { if (!confirm(f.dataset.confirm)) e.preventDefault(); }));
  const all = document.getElementById('select-all');
  if (all) all.addEventListener('change', () =>
    document.querySelectorAll('input[name="ids"]').forEach((c) => { c.checked = all.checked; }));
})();
`
