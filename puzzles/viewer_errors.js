// Runs first: collect errors so the automated checks can report them.
window.fbErrors = [];
window.addEventListener("error", (e) => window.fbErrors.push("error: " + e.message));
window.addEventListener("unhandledrejection", (e) => window.fbErrors.push("rejection: " + e.reason));
(function () {
  const original = console.error.bind(console);
  console.error = (...args) => {
    window.fbErrors.push(args.map(String).join(" "));
    original(...args);
  };
})();
