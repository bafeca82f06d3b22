// Applies the stored (or system) theme before the app loads, so a dark page never flashes light.
(function () {
  try {
    var stored = localStorage.getItem('theme');
    var mode = stored === 'dark' || stored === 'light' ? stored : window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
    if (mode === 'dark') document.documentElement.classList.add('dark');
  } catch (e) {
    /* storage unavailable */
  }
})();
