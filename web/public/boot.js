// Starts the app (its entry module, named by data-entry). A page the server already painted (its
// root holds the article or the cards) starts it after that first paint, so the page's styles and
// images have the connection to themselves until the reader sees the page; an empty page starts
// it at once. The manifest's link (data-manifest) is added a few seconds after the page has
// loaded, so the manifest and its icon are not fetched in the page's first seconds.
(function () {
  var script = document.currentScript;
  var manifest = script && script.getAttribute('data-manifest');
  if (manifest) {
    var link = function () {
      if (document.querySelector('link[rel="manifest"]')) return;
      var el = document.createElement('link');
      el.rel = 'manifest';
      el.href = manifest;
      document.head.appendChild(el);
    };
    var MANIFEST_AFTER_LOAD_MS = 3000;
    if (document.readyState === 'complete') setTimeout(link, MANIFEST_AFTER_LOAD_MS);
    else
      window.addEventListener('load', function () {
        setTimeout(link, MANIFEST_AFTER_LOAD_MS);
      });
  }
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
