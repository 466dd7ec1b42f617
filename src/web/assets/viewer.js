// The game viewer. The page carries every position of the game, worked out by the program's
// rules; this script only shows them: the position after any ply, chosen by the arrow keys,
// Home and End, the buttons, a click on a move, or the address (#ply=23, so a position can be
// linked). Without it the page shows the final position and the moves.
(function () {
  'use strict';
  var dataElement = document.getElementById('game-data');
  var board = document.getElementById('board');
  if (!dataElement || !board) {
    return;
  }
  var data = JSON.parse(dataElement.textContent);
  var total = data.plies.length;
  var squares = {};
  board.querySelectorAll('[data-square]').forEach(function (el) {
    squares[el.getAttribute('data-square')] = el;
  });
  var moves = document.querySelectorAll('.movelist a[data-ply]');
  var caption = document.getElementById('position');
  var ply = total;

  function words(n) {
    if (n === 0) {
      return 'Start position.';
    }
    var item = moves[n - 1].parentNode;
    var label = item.querySelector('.label');
    return 'After ' + (label ? label.textContent + ' ' : '') + moves[n - 1].textContent + '.';
  }

  function show(n) {
    ply = Math.max(0, Math.min(total, n));
    var position = ply === 0 ? data.start : data.plies[ply - 1].s;
    var last = ply === 0 ? [] : data.plies[ply - 1].l;
    for (var i = 0; i < position.length; i++) {
      var el = squares[String(i + 1)];
      if (!el) {
        continue;
      }
      var c = position.charAt(i);
      el.setAttribute('data-piece', c === '.' ? '' : c);
      if (last.indexOf(i + 1) >= 0) {
        el.setAttribute('data-last', '1');
      } else {
        el.removeAttribute('data-last');
      }
    }
    moves.forEach(function (m, k) {
      if (k === ply - 1) {
        m.setAttribute('aria-current', 'step');
      } else {
        m.removeAttribute('aria-current');
      }
    });
    board.setAttribute('data-ply', String(ply));
    if (caption) {
      caption.textContent = words(ply);
    }
  }

  function go(n) {
    show(n);
    if (window.history && window.history.replaceState) {
      try {
        window.history.replaceState(null, '', '#ply=' + ply);
      } catch (e) {
        // Some browsers refuse it for file:// pages; the position is shown all the same.
      }
    }
  }

  function fromAddress() {
    var m = /ply=(\d+)/.exec(window.location.hash);
    return m ? parseInt(m[1], 10) : total;
  }

  document.addEventListener('keydown', function (e) {
    var t = e.target && e.target.tagName;
    if (t === 'SELECT' || t === 'INPUT' || t === 'TEXTAREA' || e.altKey || e.ctrlKey || e.metaKey) {
      return;
    }
    var to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: total }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      go(to);
    }
  });
  moves.forEach(function (m) {
    m.addEventListener('click', function (e) {
      e.preventDefault();
      go(parseInt(m.getAttribute('data-ply'), 10));
    });
  });
  document.querySelectorAll('[data-go]').forEach(function (b) {
    b.addEventListener('click', function () {
      var to = { first: 0, prev: ply - 1, next: ply + 1, last: total }[b.getAttribute('data-go')];
      go(to);
    });
  });
  var theme = document.getElementById('theme');
  function setTheme(name) {
    board.className = board.className.replace(/\btheme-\w+/g, '').trim() + ' theme-' + name;
    if (theme) {
      theme.value = name;
    }
  }
  if (theme) {
    try {
      var saved = window.localStorage.getItem('draughts-theme');
      if (saved) {
        setTheme(saved);
      }
    } catch (e) {
      // No storage (a private window): the default theme stays.
    }
    theme.addEventListener('change', function () {
      setTheme(theme.value);
      try {
        window.localStorage.setItem('draughts-theme', theme.value);
      } catch (e) {
        // As above.
      }
    });
  }
  window.addEventListener('hashchange', function () {
    show(fromAddress());
  });
  var controls = document.getElementById('controls');
  if (controls) {
    controls.hidden = false;
  }
  show(fromAddress());
})();
