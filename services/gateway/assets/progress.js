// Live stage progress on /analyses/{id}: polls GET /api/v1/analyses/{id} and updates the table the server
// rendered. Text only (textContent), never markup from a response. Without JavaScript the page still shows
// the status as of its load, with a refresh link.
(function () {
  'use strict';
  var root = document.getElementById('analysis');
  if (!root) return;
  var id = root.getAttribute('data-analysis-id');
  if (!/^[0-9]{1,78}$/.test(id || '')) return;
  var TERMINAL = { completed: true, failed: true, cancelled: true };
  var delay = 1000;

  function text(el, value) {
    if (el && el.textContent !== value) el.textContent = value;
  }
  function progress(s) {
    if (s.done === null || s.done === undefined) return s.state === 'done' ? 'done' : '';
    return String(s.done) + (s.total !== null && s.total !== undefined ? ' / ' + s.total : '') + (s.unit ? ' ' + s.unit : '');
  }
  function render(a) {
    text(document.getElementById('analysis-state'), a.state);
    var done = 0;
    a.stages.forEach(function (s) {
      if (s.state === 'done') done += 1;
      var row = document.getElementById('stage-' + s.name);
      if (!row) return;
      row.className = 'stage-' + s.state;
      text(row.querySelector('.stage-state'), s.state);
      text(row.querySelector('.stage-progress'), progress(s));
      text(row.querySelector('.stage-attempt'), String(s.attempt));
    });
    text(document.getElementById('analysis-count'), done + ' of ' + a.stages.length);
    root.setAttribute('data-state', a.state);
    var result = document.getElementById('analysis-result');
    if (a.caseId && result && !document.getElementById('case-link')) {
      var p = document.createElement('p');
      p.className = 'notice notice-ok';
      p.appendChild(document.createTextNode('Finished: '));
      var link = document.createElement('a');
      link.id = 'case-link';
      link.href = '/cases/' + encodeURIComponent(a.caseId);
      link.textContent = 'read case ' + a.caseId;
      p.appendChild(link);
      p.appendChild(document.createTextNode('.'));
      result.replaceChildren(p);
    } else if ((a.state === 'failed' || a.state === 'cancelled') && result) {
      var e = document.createElement('p');
      e.className = 'notice notice-error';
      e.textContent =
        a.state === 'failed'
          ? 'The analysis failed: ' + (a.error ? a.error.code + ' ' + a.error.message : 'unknown')
          : 'The analysis was cancelled.';
      result.replaceChildren(e);
    }
  }
  function poll() {
    fetch('/api/v1/analyses/' + id, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (res) {
        if (res.status === 429) {
          delay = Math.min(delay * 2, 10000);
          return null;
        }
        if (!res.ok) throw new Error('status ' + res.status);
        delay = 1000;
        return res.json();
      })
      .then(function (body) {
        if (body && body.analysis) {
          render(body.analysis);
          if (TERMINAL[body.analysis.state] && (body.analysis.caseId || body.analysis.state !== 'completed')) {
            var hint = document.getElementById('live-hint');
            if (hint) hint.remove();
            return;
          }
        }
        setTimeout(poll, delay);
      })
      .catch(function () {
        delay = Math.min(delay * 2, 10000);
        setTimeout(poll, delay);
      });
  }
  if (!TERMINAL[root.getAttribute('data-state')] || !document.getElementById('case-link')) setTimeout(poll, 500);
})();
