// Starts the app (its entry module, named by data-entry). A page the server already painted (its
// root holds the article or the cards) starts it after that first paint, so the page's styles and
// images have the connection to themselves until the reader sees the page; an empty page starts
// it at once.
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  function start() {
    var module = document.createElement('script');
    module.type = 'module';
    module.crossOrigin = '';
    module.src = entry;
    document.head.appendChild(module);
  }
  var root = document.getElementById('root');
  if (root && root.firstElementChild && typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible') {
    requestAnimationFrame(function () {
      setTimeout(start, 0);
    });
  } else {
    start();
  }
})();
