// Ordo Console: one hash-routed page over the console's JSON API. Plain ES module, no build step.
// Every URL is relative (api/..., assets/...), so the console works mounted at / or at /ordo/.
// After each render the page sets window.__ordoRendered = {what, route, at, seq} for the browser tests.

const $ = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const words = (camel) => camel.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
const qs = (params) => new URLSearchParams(Object.entries(params).filter(([, v]) => v != null && v !== '')).toString();
const COLORS = ['#2563eb', '#d97706', '#059669', '#dc2626', '#7c3aed'];
const MAX_POINTS = 600;
const POLL_MS = 2000;
const CHART_SPAN_S = 120;
const SECTIONS = {leaderboard: 'boards', 'delayed-queue': 'queues', 'priority-queue': 'queues', 'rate-limiter': 'limiters'};

let about = {writable: false, maxPage: 100};
let leaving = [];
let renders = 0;

// ------------------------------------------------------------------ rendering helpers

/** An element: h('td', {class: 'num', onclick: f}, 'text', child, [more]). Null, false and undefined children are skipped. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  el.append(...children.flat(Infinity).filter((c) => c != null && c !== false).map((c) => (c instanceof Node ? c : String(c))));
  return el;
}

const fmt = {
  num: (n) => (n == null ? '–' : Number(n).toLocaleString('en-US', {maximumFractionDigits: 2})),
  pct: (r) => (r == null ? '–' : `${(r * 100).toFixed(1)}%`),
  score: (s) => (s == null ? '–' : String(s)),
  bytes(n) {
    const units = ['B', 'KB', 'MB', 'GB', 'TB'];
    let i = 0;
    for (; n >= 1024 && i < units.length - 1; i++) n /= 1024;
    return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
  },
  duration(ms) {
    const steps = [[86400000, 'd'], [3600000, 'h'], [60000, 'min'], [1000, 's']];
    const [size, unit] = steps.find(([s]) => ms >= s) ?? [1, 'ms'];
    return `${+(ms / size).toFixed(1)} ${unit}`;
  },
};

/** Figure cards; each item {label, value (shown), raw (data-value), id (on the value)}. */
function cards(items, id) {
  return h('div', {class: 'cards', id},
    items.map(({label, value, raw, id: vid}) =>
      h('div', {class: 'card'}, h('div', {class: 'label'}, label), h('div', {class: 'value', id: vid, 'data-value': raw ?? value}, value))));
}

/** A table; columns [{label, cell: row => node or text, class}]; rowAttrs(row) adds attributes to each row. */
function table(id, columns, rows, rowAttrs = () => ({})) {
  const body = rows.length
    ? rows.map((r) => h('tr', rowAttrs(r), columns.map((c) => h('td', {class: c.class}, c.cell(r)))))
    : h('tr', {}, h('td', {class: 'empty', colspan: columns.length}, 'Nothing here.'));
  return h('table', {id}, h('thead', {}, h('tr', {}, columns.map((c) => h('th', {class: c.class}, c.label)))), h('tbody', {}, body));
}

/** A titled panel; the title may hold buttons beside its text. */
const panel = (title, ...children) => h('section', {class: 'panel'}, h('h2', {}, title), ...children);

/** A one-line form calling submit(FormData) instead of navigating. */
const inlineForm = (id, submit, ...controls) =>
  h('form', {id, class: 'inline', onsubmit: (e) => { e.preventDefault(); submit(new FormData(e.target)); }}, ...controls);

/** A horizontal usage bar, 0..1. */
const usage = (fraction) =>
  h('div', {class: `usage${fraction >= 0.9 ? ' hot' : ''}`, title: fmt.pct(fraction)},
    h('div', {style: `width:${Math.min(100, Math.max(0, fraction * 100))}%`}), h('span', {}, fmt.pct(fraction)));

/** Vertical CSS bars: items [{label, value}]. */
function bars(id, items) {
  const top = Math.max(1, ...items.map((i) => i.value));
  return h('div', {class: 'bars', id},
    items.map(({label, value}) => h('div', {class: 'bar', title: `${label}: ${value}`},
      h('span', {class: 'count'}, value || ''), h('div', {style: `height:${(value / top) * 100}%`}), h('span', {class: 'tick'}, label))));
}

/** Prev / next paging; go(offset) loads another page. */
const pager = (offset, limit, hasNext, text, go) =>
  h('div', {class: 'pager'},
    h('button', {id: 'page-prev', disabled: offset === 0, onclick: () => go(Math.max(0, offset - limit))}, '‹ Prev'),
    h('span', {id: 'page-info'}, text),
    h('button', {id: 'page-next', disabled: !hasNext, onclick: () => go(offset + limit)}, 'Next ›'));

/** A uPlot time chart appended to host, spanning at least the last two minutes; push(atMs, ...values) adds a point to each series. */
function chart(host, title, series) {
  const data = [[], ...series.map(() => [])];
  const size = () => ({width: Math.max(host.clientWidth - 16, 280), height: 200});
  const plot = new uPlot({
    title, ...size(),
    series: [{}, ...series.map((s, i) => ({label: s.label, stroke: COLORS[i % COLORS.length], width: 2, value: (u, v) => (v == null ? '–' : s.fmt(v))}))],
    axes: [{}, {size: 70, values: (u, vals) => vals.map(series[0].fmt)}],
  }, data, host);
  const fit = () => plot.setSize(size());
  window.addEventListener('resize', fit);
  onLeave(() => window.removeEventListener('resize', fit));
  return {
    push(at, ...values) {
      data[0].push(at / 1000);
      values.forEach((v, i) => data[i + 1].push(v));
      if (data[0].length > MAX_POINTS) data.forEach((a) => a.shift());
      plot.setData(data);
      const last = data[0][data[0].length - 1];
      plot.setScale('x', {min: Math.min(data[0][0], last - CHART_SPAN_S), max: last});
    },
  };
}

// ------------------------------------------------------------------ API, errors, confirmation

/** Spring Security's CSRF token, when the console is mounted behind it: the header to send it in, and its value. */
let csrf = null;

async function api(path, init) {
  const res = await fetch(path, init);
  const csrfHeader = res.headers.get('X-Ordo-Csrf-Header');
  if (csrfHeader) csrf = {header: csrfHeader, token: res.headers.get('X-Ordo-Csrf-Token')};
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error || `${res.status} ${res.statusText}`);
  return body;
}

function write(method, path, body) {
  const headers = {'X-Ordo-Console': '1', 'Content-Type': 'application/json'};
  if (csrf) headers[csrf.header] = csrf.token;
  return api(path, {method, headers, body: body && JSON.stringify(body)});
}

function showError(error) {
  $('error-text').textContent = error?.message ?? String(error);
  $('error-banner').hidden = false;
}

/** The modal: resolves the typed value (or true without an input) on Confirm, null on Cancel or Escape. */
function ask({title, text, value}) {
  const dialog = $('modal');
  const input = $('modal-input');
  $('modal-title').textContent = title;
  $('modal-text').textContent = text;
  input.hidden = input.disabled = value === undefined;
  input.required = value !== undefined;
  input.value = value ?? '';
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close',
    () => resolve(dialog.returnValue !== 'confirm' ? null : input.hidden ? true : input.value), {once: true}));
}

/** Marks a finished render of what page shows, for the browser tests' timing and waiting; a page already left marks nothing. */
function rendered(page, what) {
  if (page.isConnected) window.__ordoRendered = {what, route: location.hash, at: performance.now(), seq: ++renders};
}

const onLeave = (stop) => leaving.push(stop);
const every = (ms, task) => { const t = setInterval(task, ms); onLeave(() => clearInterval(t)); };
const patternHref = (p) => `#/${SECTIONS[p.kind]}/${enc(p.name)}`;

// ------------------------------------------------------------------ navigation

function renderNav(patterns) {
  const group = (title, kinds) => {
    const items = patterns.filter((p) => kinds.includes(p.kind));
    return [h('h3', {}, title), h('ul', {}, items.length
      ? items.map((p) => h('li', {}, h('a', {href: patternHref(p), 'data-test': `nav-${SECTIONS[p.kind]}-${p.name}`}, p.name)))
      : h('li', {class: 'muted'}, 'none'))];
  };
  $('nav').replaceChildren(
    h('a', {href: '#/', 'data-test': 'nav-overview'}, 'Overview'),
    ...group('Leaderboards', ['leaderboard']),
    ...group('Queues', ['delayed-queue', 'priority-queue']),
    ...group('Rate limiters', ['rate-limiter']),
    h('h3', {}, 'Data'),
    h('a', {href: '#/keys', 'data-test': 'nav-keys'}, 'Key browser'));
  markNav();
}

function markNav() {
  for (const a of $('nav').querySelectorAll('a')) a.classList.toggle('active', a.getAttribute('href') === (location.hash || '#/'));
}

// ------------------------------------------------------------------ pages

async function overview(page) {
  const [{now, history}, patterns] = await Promise.all([api('api/overview'), api('api/patterns')]);
  renderNav(patterns);
  const figures = h('div');
  const status = h('span', {id: 'live-status', class: 'muted'}, 'connecting…');
  const opsHost = h('div', {class: 'chart', id: 'ops-chart'});
  const memHost = h('div', {class: 'chart', id: 'memory-chart'});
  page.append(h('h1', {}, 'Overview ', status), figures, h('div', {class: 'grid2'}, opsHost, memHost), patternLists(patterns));
  const ops = chart(opsHost, 'Operations per second', [{label: 'ops/s', fmt: fmt.num}]);
  const memory = chart(memHost, 'Memory used', [{label: 'memory', fmt: fmt.bytes}]);
  const show = (s) => {
    figures.replaceChildren(cards([
      {label: 'Ops/s', value: fmt.num(s.opsPerSec), id: 'fig-ops'},
      {label: 'Memory', value: fmt.bytes(s.usedMemory) + (s.maxMemory ? ` of ${fmt.bytes(s.maxMemory)}` : ''), raw: s.usedMemory, id: 'fig-memory'},
      {label: 'Clients', value: fmt.num(s.clients), raw: s.clients, id: 'fig-clients'},
      {label: 'Keys', value: fmt.num(s.keys), raw: s.keys, id: 'fig-keys'},
      {label: 'Hit ratio', value: fmt.pct(s.hitRatio), id: 'fig-hits'},
      {label: 'Evicted', value: fmt.num(s.evicted), raw: s.evicted, id: 'fig-evicted'},
    ], 'figures'), h('p', {class: 'muted', id: 'fig-at', 'data-at': s.at}, `Server ${s.version}, read ${new Date(s.at).toLocaleTimeString()}`));
  };
  show(now);
  history.forEach((s) => { ops.push(s.at, s.opsPerSec); memory.push(s.at, s.usedMemory); });
  const live = new EventSource('api/live');
  live.onopen = () => { status.textContent = 'live'; };
  live.onerror = () => { status.textContent = 'reconnecting…'; };
  live.onmessage = (e) => {
    const s = JSON.parse(e.data);
    status.textContent = 'live';
    show(s);
    ops.push(s.at, s.opsPerSec);
    memory.push(s.at, s.usedMemory);
  };
  onLeave(() => live.close());
  rendered(page, 'overview');
}

function patternLists(patterns) {
  const list = (title, kinds, id) => panel(title, table(id, [
    {label: 'Name', cell: (p) => h('a', {href: patternHref(p)}, p.name)},
    {label: 'Kind', cell: (p) => p.kind},
    {label: 'Settings', cell: (p) => Object.entries(p.settings).map(([k, v]) => `${k}=${v}`).join(', '), class: 'muted'},
  ], patterns.filter((p) => kinds.includes(p.kind))));
  return h('div', {class: 'grid3', id: 'pattern-lists'},
    list('Leaderboards', ['leaderboard'], 'list-boards'),
    list('Queues', ['delayed-queue', 'priority-queue'], 'list-queues'),
    list('Rate limiters', ['rate-limiter'], 'list-limiters'));
}

async function board(page, name) {
  const state = {period: null, offset: 0, limit: Math.min(25, about.maxPage)};
  const base = `api/boards/${enc(name)}`;
  const memberPath = (member) => `${base}/members/${enc(member)}?${qs({period: state.period})}`;
  const head = h('div');
  const found = h('div', {id: 'member-result'});
  const rows = h('div');
  const search = inlineForm('member-form', (f) => lookup(f.get('member').trim()),
    h('input', {id: 'member-search', name: 'member', placeholder: 'Find a member', required: true, autocomplete: 'off'}),
    h('button', {id: 'member-go', class: 'primary'}, 'Find'));
  page.append(h('h1', {}, 'Leaderboard ', h('span', {class: 'name'}, name)), head,
    h('div', {class: 'grid2 wide-left'}, rows, panel('Find a member', search, found)));

  const columns = [
    {label: 'Rank', cell: (r) => fmt.num(r.rank), class: 'num'},
    {label: 'Member', cell: (r) => r.member},
    {label: 'Score', cell: (r) => fmt.score(r.score), class: 'num'},
    {label: 'Metadata', cell: (r) => Object.entries(r.metadata ?? {}).map(([k, v]) => `${k}: ${v}`).join(', '), class: 'muted'},
    about.writable && {label: '', class: 'actions', cell: (r) => [
      h('button', {'data-test': 'edit', title: 'Edit score', onclick: () => edit(r)}, 'Edit'),
      h('button', {'data-test': 'remove', title: 'Remove from the board', class: 'danger', onclick: () => remove(r)}, 'Remove')]},
  ].filter(Boolean);
  const rowAttrs = (me) => (r) => ({'data-member': r.member, 'data-rank': r.rank, class: r.member === me ? 'me' : null});

  async function load() {
    const b = await api(`${base}?${qs({offset: state.offset, limit: state.limit, period: state.period})}`);
    state.period = b.period;
    const periods = b.periods.length > 0 && h('label', {}, 'Period ',
      h('select', {id: 'period', onchange: (e) => { state.period = e.target.value; state.offset = 0; load(); }},
        b.periods.map((p) => h('option', {value: p, selected: p === b.period}, p))));
    head.replaceChildren(h('div', {class: 'toolbar'}, cards([
      {label: 'Members', value: fmt.num(b.count), raw: b.count, id: 'board-count'},
      {label: 'Order', value: b.order, id: 'board-order'},
      {label: 'Tie rule', value: b.tieRule, id: 'board-tie-rule'},
      {label: 'Kind', value: b.kind + (b.shards > 1 ? ` (${b.shards} shards)` : '')},
    ]), periods));
    const last = Math.min(b.offset + b.rows.length, b.count);
    rows.replaceChildren(panel('Standings', table('board-table', columns, b.rows, rowAttrs(null)),
      pager(b.offset, b.limit, last < b.count, b.rows.length ? `${fmt.num(b.offset + 1)}–${fmt.num(last)} of ${fmt.num(b.count)}` : 'no rows',
        (offset) => { state.offset = offset; load(); })));
    rendered(page, 'board');
  }

  async function lookup(member) {
    const m = await api(`${base}/members/${enc(member)}?${qs({window: 5, period: state.period})}`);
    found.replaceChildren(m.found
      ? h('div', {}, cards([
        {label: 'Rank', value: fmt.num(m.rank), raw: m.rank, id: 'member-rank'},
        {label: 'Score', value: fmt.score(m.score), id: 'member-score'},
        {label: 'Percentile', value: m.percentile == null ? '–' : m.percentile.toFixed(1), raw: m.percentile, id: 'member-percentile'},
      ]), table('around-table', columns, m.around, rowAttrs(m.member)))
      : h('p', {id: 'member-missing'}, `${member} is not on this board.`));
    rendered(page, 'member');
  }

  async function edit(row) {
    const score = await ask({title: 'Edit score', text: `New score for ${row.member} (now ${fmt.score(row.score)}):`,
      value: typeof row.score === 'number' ? row.score : ''});
    if (score == null) return;
    await write('PUT', memberPath(row.member), {score: Number(score)});
    $('member-search').value = row.member;
    await load();
    await lookup(row.member);
  }

  async function remove(row) {
    if (!await ask({title: 'Remove member', text: `Remove ${row.member} from ${name}?`})) return;
    await write('DELETE', memberPath(row.member));
    found.replaceChildren();
    await load();
  }

  await load();
}

async function queue(page, name) {
  const base = `api/queues/${enc(name)}`;
  const counts = h('div');
  const chartHost = h('div', {class: 'chart', id: 'queue-chart'});
  const beside = h('div');
  const below = h('div');
  page.append(h('h1', {}, 'Queue ', h('span', {class: 'name'}, name)), counts, h('div', {class: 'grid2'}, chartHost, beside), below);
  let q = await api(base);
  const series = chart(chartHost, 'Jobs by state', Object.keys(q.counts).map((k) => ({label: words(k), fmt: fmt.num})));
  let seen = '';

  async function refresh() {
    q = await api(base);
    counts.replaceChildren(cards(Object.entries(q.counts).map(([k, v]) => ({label: words(k), value: fmt.num(v), raw: v, id: `count-${k}`})), 'queue-counts'));
    series.push(Date.now(), ...Object.values(q.counts));
    const now = JSON.stringify([q.counts, q.depthByPriority]);
    if (now !== seen) {
      seen = now;
      const [side, rest] = await (q.type === 'priority' ? priorityDetail() : delayedDetail());
      beside.replaceChildren(side);
      below.replaceChildren(...rest);
    }
    rendered(page, 'queue');
  }

  /** What goes beside the chart, and below it. */
  const priorityDetail = async () => [panel('Depth by priority',
    bars('priority-depth', Object.entries(q.depthByPriority).map(([p, n]) => ({label: `p${p}`, value: n})))), []];

  async function delayedDetail() {
    const [due, inFlight, dead] = await Promise.all([api(`${base}/due?bucketMs=60000&buckets=30`), api(`${base}/inflight?limit=50`), api(`${base}/dead?limit=100`)]);
    return [
      panel('Delayed jobs by due time (per minute, next 30 min)',
        bars('due-histogram', due.counts.map((value, i) => ({label: i % 5 === 0 ? `+${i}m` : '', value}))),
        h('p', {class: 'muted'}, `${fmt.num(due.later)} due later`)),
      [h('div', {class: 'grid2'}, panel('In flight', table('inflight-table', [
        {label: 'Job', cell: (j) => j.id},
        {label: 'Attempt', cell: (j) => j.attempt, class: 'num'},
        {label: 'Claimed', cell: (j) => `${fmt.duration(j.claimAgeMs)} ago`, class: 'num'},
        {label: 'Deadline', cell: (j) => new Date(j.deadline).toLocaleTimeString(), class: 'num'},
      ], inFlight)),
      panel(['Dead letters', about.writable && dead.length > 0 && h('button', {id: 'purge-dead', class: 'danger', onclick: purge}, 'Purge')],
        dead.length ? dead.map(deadGroup) : h('p', {class: 'muted', id: 'no-dead'}, 'No dead letters.')))],
    ];
  }

  const deadGroup = (g) => h('div', {class: 'dead-group', 'data-reason': g.reason},
    h('h3', {}, `${g.reason} `, h('span', {class: 'muted'}, `(${g.count})`),
      about.writable && h('button', {'data-test': 'retry-group', onclick: () => retry(g.jobs.map((j) => j.id))}, 'Retry all')),
    table(null, [
      {label: 'Job', cell: (j) => j.id},
      {label: 'Payload', cell: (j) => h('code', {}, j.payload)},
      about.writable && {label: '', class: 'actions', cell: (j) => h('button', {'data-test': 'retry-job', onclick: () => retry([j.id])}, 'Retry')},
    ].filter(Boolean), g.jobs, (j) => ({'data-job': j.id})));

  async function retry(ids) {
    if (!await ask({title: 'Retry dead letters', text: `Put ${ids.length} job(s) back on ${name}: ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? '…' : ''}`})) return;
    await write('POST', `${base}/dead/retry`, {ids});
    await refresh();
  }

  async function purge() {
    const max = Math.min(q.counts.dead, about.maxPage);
    if (!await ask({title: 'Purge dead letters', text: `Delete ${max} dead letter(s) of ${name} for good?`})) return;
    await write('POST', `${base}/dead/purge`, {max});
    await refresh();
  }

  await refresh();
  every(POLL_MS, refresh);
}

async function limiter(page, name) {
  const base = `api/limiters/${enc(name)}`;
  const l = await api(`${base}?top=20`);
  const columns = [
    {label: 'Key', cell: (k) => k.key},
    {label: 'Used', cell: (k) => usage(k.used)},
    {label: 'Remaining', cell: (k) => `${fmt.num(k.remaining)} of ${fmt.num(k.permits)}`, class: 'num'},
    {label: 'Limit', cell: (k) => `${fmt.num(l.limits[k.limit].permits)} per ${fmt.duration(l.limits[k.limit].windowMs)}`},
  ];
  const keyAttrs = (k) => ({'data-key': k.key});
  const result = h('div', {id: 'limiter-key-result'});
  const lookup = inlineForm('limiter-key-form', async (f) => {
    result.replaceChildren(table('limiter-key-table', columns, [await api(`${base}/keys/${enc(f.get('key'))}`)], keyAttrs));
    rendered(page, 'limiter-key');
  }, h('input', {id: 'limiter-key', name: 'key', placeholder: 'Key, such as a user id', required: true}), h('button', {class: 'primary'}, 'Look up'));
  page.append(
    h('h1', {}, 'Rate limiter ', h('span', {class: 'name'}, name)),
    cards([{label: 'Algorithm', value: l.algorithm, id: 'limiter-algorithm'},
      ...l.limits.map((x, i) => ({label: `Limit ${i + 1}`, value: `${fmt.num(x.permits)} per ${fmt.duration(x.windowMs)}`}))], 'limiter-limits'),
    panel('Keys nearest their limit', table('limiter-keys', columns, l.nearest, keyAttrs),
      h('p', {class: 'muted'}, `${fmt.num(l.keysSeen)} keys seen${l.complete ? '' : ' (a sample: the scan stopped early)'}`)),
    panel('Look up a key', lookup, result));
  rendered(page, 'limiter');
}

async function keys(page) {
  const results = h('div');
  const scan = async (match, type, cursor) => {
    const k = await api(`api/keys?${qs({match, type, cursor, count: 100})}`);
    results.replaceChildren(
      table('keys-table', [
        {label: 'Key', cell: (r) => (r.type === 'zset' ? h('a', {href: `#/zsets/${enc(r.key)}`}, r.key) : r.key)},
        {label: 'Type', cell: (r) => r.type},
      ], k.keys, (r) => ({'data-key': r.key})),
      h('div', {class: 'pager'}, k.cursor === '0'
        ? h('span', {id: 'scan-done', class: 'muted'}, 'Scan complete.')
        : h('button', {id: 'keys-next', onclick: () => scan(match, type, k.cursor)}, 'Next page ›')));
    rendered(page, 'keys');
  };
  page.append(h('h1', {}, 'Key browser'),
    panel('Scan', inlineForm('keys-form', (f) => scan(f.get('match') || '*', f.get('type'), '0'),
      h('input', {id: 'key-match', name: 'match', value: '*', placeholder: 'MATCH pattern'}),
      h('select', {id: 'key-type', name: 'type'}, ['', 'zset', 'hash', 'string', 'list', 'set', 'stream'].map((t) => h('option', {value: t}, t || 'any type'))),
      h('button', {id: 'key-scan', class: 'primary'}, 'Scan')), results));
  await scan('*', '', '0');
}

async function zset(page, key) {
  const state = {by: 'rank', min: '', max: '', rev: false, start: 0, count: Math.min(50, about.maxPage)};
  const info = h('div');
  const rows = h('div');
  const form = inlineForm('zset-form', (f) => {
    Object.assign(state, {by: f.get('by'), min: f.get('min'), max: f.get('max'), rev: f.get('rev') === 'on', start: 0});
    load();
  },
  h('select', {id: 'zset-by', name: 'by'}, ['rank', 'score', 'lex'].map((b) => h('option', {value: b}, `by ${b}`))),
  h('input', {id: 'zset-min', name: 'min', placeholder: 'min', title: 'score: 10, (10 or -inf; lex: [a, (a or -'}),
  h('input', {id: 'zset-max', name: 'max', placeholder: 'max', title: 'score: 20, (20 or +inf; lex: [z, (z or +'}),
  h('label', {}, h('input', {id: 'zset-rev', name: 'rev', type: 'checkbox'}), ' reverse'),
  h('button', {id: 'zset-go', class: 'primary'}, 'Query'));
  page.append(h('h1', {}, 'Sorted set ', h('span', {class: 'name'}, key)), info, panel('Query', form), rows);

  async function load() {
    const range = state.by === 'score' ? {min: state.min || '-inf', max: state.max || '+inf'}
      : state.by === 'lex' ? {lexMin: state.min || '-', lexMax: state.max || '+'} : {};
    const z = await api(`api/zsets/${enc(key)}?${qs({start: state.start, count: state.count, rev: state.rev, ...range})}`);
    info.replaceChildren(cards([
      {label: 'Type', value: z.type, id: 'zset-type'},
      {label: 'Encoding', value: z.encoding, id: 'zset-encoding'},
      {label: 'Cardinality', value: fmt.num(z.card), raw: z.card, id: 'zset-card'},
      {label: 'Range', value: `by ${z.by}${state.rev ? ', reversed' : ''}`},
    ]));
    const hasNext = z.by === 'rank' ? state.start + z.rows.length < z.card : z.rows.length === state.count;
    rows.replaceChildren(panel('Members', table('zset-table', [
      {label: state.rev ? 'ZREVRANK' : 'ZRANK', cell: (r) => fmt.num(r.rank), class: 'num'},
      {label: 'Member', cell: (r) => r.member},
      {label: 'Score', cell: (r) => fmt.score(r.score), class: 'num'},
    ], z.rows, (r) => ({'data-member': r.member, 'data-rank': r.rank})),
    pager(state.start, state.count, hasNext, z.rows.length ? `rows ${fmt.num(state.start + 1)}–${fmt.num(state.start + z.rows.length)}` : 'no rows',
      (start) => { state.start = start; load(); })));
    rendered(page, 'zset');
  }

  await load();
}

// ------------------------------------------------------------------ routing

const routes = [
  [/^#?\/?$/, overview],
  [/^#\/boards\/(.+)$/, board],
  [/^#\/queues\/(.+)$/, queue],
  [/^#\/limiters\/(.+)$/, limiter],
  [/^#\/keys$/, keys],
  [/^#\/zsets\/(.+)$/, zset],
];

async function route() {
  leaving.splice(0).forEach((stop) => stop());
  $('error-banner').hidden = true;
  markNav();
  const page = h('div', {class: 'page'});
  $('main').replaceChildren(page);
  const match = routes.map(([pattern, show]) => [location.hash.match(pattern), show]).find(([m]) => m);
  if (!match) {
    page.append(h('h1', {}, 'Not found'), h('p', {}, h('a', {href: '#/'}, 'Back to the overview')));
    return;
  }
  const [m, show] = match;
  await show(page, m[1] === undefined ? undefined : decodeURIComponent(m[1]));
}

async function start() {
  about = await api('api/about');
  $('store').textContent = about.store;
  $('mode-badge').textContent = about.writable ? 'WRITABLE' : 'READ-ONLY';
  $('mode-badge').className = `badge ${about.writable ? 'writable' : 'read-only'}`;
  renderNav(await api('api/patterns'));
  window.addEventListener('hashchange', route);
  await route();
}

window.addEventListener('unhandledrejection', (e) => { e.preventDefault(); showError(e.reason); });
$('error-close').addEventListener('click', () => { $('error-banner').hidden = true; });
$('modal-cancel').addEventListener('click', () => $('modal').close('cancel'));
start();
