/**
 * The script of the HTML explorer, as source text. It runs in the page with
 * no network: it reads the embedded JSON, lays out the panels of the current
 * step with `textContent` only (trace text is never parsed as HTML), and
 * moves between steps with the keyboard and the buttons.
 * @internal
 */
export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('trace-data').textContent);
  var last = data.views.length - 1;
  var violationStep = data.violation ? data.violation.step : null;
  var cur = 0;

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function drawPanel(name, panel) {
    var body = document.querySelector('#panel-' + name + ' .panel-body');
    body.textContent = '';
    if (panel.rows.length === 0) {
      body.appendChild(el('p', '(none)', 'empty'));
      return;
    }
    var table = el('table');
    var head = el('tr');
    panel.columns.forEach(function (c) { head.appendChild(el('th', c)); });
    table.appendChild(el('thead')).appendChild(head);
    var tbody = table.appendChild(el('tbody'));
    panel.rows.forEach(function (r) {
      var tr = el('tr', null, r.changed ? 'changed' : '');
      tr.setAttribute('data-key', r.key);
      r.cells.forEach(function (c) { tr.appendChild(el('td', c)); });
      tbody.appendChild(tr);
    });
    body.appendChild(table);
  }

  function drawDiff(rows) {
    var box = document.getElementById('store-diff');
    box.textContent = '';
    if (rows.length === 0) { box.appendChild(el('p', cur === 0 ? '(the initial world)' : 'no durable change', 'empty')); return; }
    rows.forEach(function (d) {
      var table = el('table', null, 'diff');
      table.setAttribute('data-panel', d.panel);
      table.setAttribute('data-key', d.key);
      var head = el('tr');
      head.appendChild(el('th', d.panel));
      d.columns.forEach(function (c) { head.appendChild(el('th', c)); });
      table.appendChild(head);
      [['before', 'del', d.before, d.after], ['after', 'add', d.after, d.before]].forEach(function (side) {
        var tr = el('tr', null, side[1]);
        tr.appendChild(el('td', side[0]));
        if (side[2] === null) { var td = el('td', '(absent)'); td.colSpan = d.columns.length; tr.appendChild(td); }
        else side[2].forEach(function (c, i) { tr.appendChild(el('td', c, side[3] === null || side[3][i] !== c ? 'chg' : '')); });
        table.appendChild(tr);
      });
      box.appendChild(table);
    });
  }

  // Scrolls the diagram's own box (not the page) so the current message is in view.
  function reveal(b) {
    var box = document.getElementById('sequence-scroll');
    if (b.y < box.scrollTop || b.y + b.height > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, b.y - box.clientHeight / 3);
  }

  function drawDiagrams() {
    document.querySelectorAll('#sequence g.msg').forEach(function (g) {
      var here = Number(g.getAttribute('data-step')) === cur;
      g.classList.toggle('current', here);
      if (here) reveal(g.getBBox());
    });
    var at = data.engines[cur] || [];
    var moved = data.moves[cur] || [];
    document.querySelectorAll('#statechart g.state').forEach(function (g) {
      var name = g.getAttribute('data-state');
      var who = at.filter(function (e) { return e.state === name; }).map(function (e) { return e.engine; });
      g.classList.toggle('lit', who.length > 0);
      g.querySelector('text.who').textContent = who.join(' ');
    });
    document.querySelectorAll('#statechart g.edge').forEach(function (g) {
      g.classList.toggle('taken', moved.indexOf(g.getAttribute('data-edge')) >= 0);
    });
  }

  function show(n) {
    cur = Math.max(0, Math.min(last, n));
    var step = data.steps[cur];
    document.querySelectorAll('#steps li').forEach(function (li) {
      var here = Number(li.getAttribute('data-step')) === cur;
      li.classList.toggle('current', here);
      if (here) { li.setAttribute('aria-current', 'step'); li.scrollIntoView({ block: 'nearest' }); }
      else li.removeAttribute('aria-current');
    });
    var label = 'step ' + cur + ' of ' + last + ': ' + (cur === 0 ? 'initial world' : step.label + ' (' + step.phase + ' phase, ' + step.group + ')');
    document.getElementById('step-label').textContent = label;
    var changes = document.getElementById('step-changes');
    changes.textContent = '';
    (cur === 0 ? [] : step.notes).forEach(function (t) { changes.appendChild(el('li', t)); });
    if (cur !== 0 && step.notes.length === 0) changes.appendChild(el('li', 'no change outside engine memory'));
    data.panels.forEach(function (name) { drawPanel(name, data.views[cur][name]); });
    drawDiff(data.diffs[cur]);
    drawDiagrams();
    document.getElementById('state-json').textContent = JSON.stringify(data.states[cur], null, 2);
    var v = document.getElementById('violation');
    if (v) v.classList.toggle('here', cur === violationStep);
    document.body.setAttribute('data-step', String(cur));
    document.body.classList.toggle('at-violation', cur === violationStep);
    document.getElementById('prev').disabled = cur === 0;
    document.getElementById('first').disabled = cur === 0;
    document.getElementById('next').disabled = cur === last;
    document.getElementById('last').disabled = cur === last;
    try { history.replaceState(null, '', '#step=' + cur); } catch (e) { /* some file:// contexts refuse; the page still works */ }
  }

  document.addEventListener('keydown', function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var to = null;
    switch (ev.key) {
      case 'ArrowRight': case 'j': to = cur + 1; break;
      case 'ArrowLeft': case 'k': to = cur - 1; break;
      case 'Home': to = 0; break;
      case 'End': to = last; break;
      case 'v': if (violationStep !== null) to = violationStep; break;
    }
    if (to === null) return;
    ev.preventDefault();
    show(to);
  });
  document.getElementById('first').addEventListener('click', function () { show(0); });
  document.getElementById('prev').addEventListener('click', function () { show(cur - 1); });
  document.getElementById('next').addEventListener('click', function () { show(cur + 1); });
  document.getElementById('last').addEventListener('click', function () { show(last); });
  var jump = document.getElementById('to-violation');
  if (jump) jump.addEventListener('click', function () { show(violationStep); });
  document.querySelectorAll('#steps li, #sequence g.msg').forEach(function (item) {
    item.addEventListener('click', function () { show(Number(item.getAttribute('data-step'))); });
  });
  var m = /^#step=(\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) : 0);
})();
`;
