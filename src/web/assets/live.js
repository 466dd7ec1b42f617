// A game in progress, live: the page subscribes to the server's event stream for the game and
// shows each state it is sent — the position, the moves, the clocks (counting down between
// states) and how the game stands. Without it the page shows the game as it was when loaded.
(function () {
  'use strict';
  var board = document.querySelector('[data-live]');
  if (!board || !window.EventSource) {
    return;
  }
  var squares = {};
  board.querySelectorAll('[data-square]').forEach(function (el) {
    squares[el.getAttribute('data-square')] = el;
  });
  var list = document.getElementById('live-moves');
  var status = document.getElementById('status');
  var clocks = { white: document.getElementById('clock-white'), black: document.getElementById('clock-black') };
  var state = null;
  var received = 0;

  function clockText(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var two = function (n) { return (n < 10 ? '0' : '') + n; };
    return s >= 3600
      ? Math.floor(s / 3600) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60)
      : Math.floor(s / 60) + ':' + two(s % 60);
  }

  function showClocks() {
    if (!state || !state.clocks || !clocks.white) {
      return;
    }
    var gone = Date.now() - received;
    ['white', 'black'].forEach(function (side, i) {
      var ms = state.clocks[i] - (state.running === side ? gone : 0);
      clocks[side].textContent = clockText(ms);
    });
  }

  function show(s) {
    state = s;
    received = Date.now();
    for (var i = 0; i < s.squares.length; i++) {
      var el = squares[String(i + 1)];
      if (!el) {
        continue;
      }
      var c = s.squares.charAt(i);
      el.setAttribute('data-piece', c === '.' ? '' : c);
      if (s.last.indexOf(i + 1) >= 0) {
        el.setAttribute('data-last', '1');
      } else {
        el.removeAttribute('data-last');
      }
    }
    board.setAttribute('data-moves', String(s.moves.length));
    if (list) {
      while (list.children.length > s.moves.length) {
        list.removeChild(list.lastChild);
      }
      for (var k = list.children.length; k < s.moves.length; k++) {
        var li = document.createElement('li');
        li.textContent = s.moves[k];
        list.appendChild(li);
      }
    }
    if (status) {
      status.textContent = s.status;
    }
    showClocks();
  }

  var source = new EventSource(board.getAttribute('data-live') + '/events');
  source.addEventListener('message', function (e) {
    var s = JSON.parse(e.data);
    show(s);
    if (s.over) {
      source.close();
    }
  });
  window.setInterval(showClocks, 250);
})();
