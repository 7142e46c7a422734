// Evaluated in each SSR engine before the bundle: the few host APIs the
// renderers touch at load time. React 19's server renderer needs
// MessageChannel, TextEncoder and timers; Preact needs none of them.
var console = globalThis.console || { log() {}, warn() {}, error() {}, info() {}, debug() {} };
(function (g) {
  var later = function (f) { Promise.resolve().then(f); };
  if (typeof g.queueMicrotask !== 'function') g.queueMicrotask = later;
  if (typeof g.setTimeout !== 'function') {
    g.setTimeout = function (f) { var a = [].slice.call(arguments, 2); later(function () { f.apply(null, a); }); return 0; };
    g.clearTimeout = function () {};
    g.setImmediate = g.setTimeout;
  }
  if (typeof g.MessageChannel !== 'function') {
    g.MessageChannel = function () {
      var p1 = { onmessage: null }, p2 = { onmessage: null };
      p1.postMessage = function (d) { later(function () { if (p2.onmessage) p2.onmessage({ data: d }); }); };
      p2.postMessage = function (d) { later(function () { if (p1.onmessage) p1.onmessage({ data: d }); }); };
      this.port1 = p1; this.port2 = p2;
    };
  }
  if (typeof g.TextEncoder !== 'function') {
    g.TextEncoder = function () {};
    g.TextEncoder.prototype.encode = function (s) {
      var b = unescape(encodeURIComponent(String(s === undefined ? '' : s)));
      var out = new Uint8Array(b.length);
      for (var i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
      return out;
    };
    g.TextEncoder.prototype.encodeInto = function (s, dst) {
      var e = this.encode(s); dst.set(e.subarray(0, dst.length));
      return { read: s.length, written: Math.min(e.length, dst.length) };
    };
  }
  if (typeof g.TextDecoder !== 'function') {
    g.TextDecoder = function () {};
    g.TextDecoder.prototype.decode = function (u) {
      if (!u) return '';
      var b = new Uint8Array(u.buffer || u, u.byteOffset || 0, u.byteLength === undefined ? u.length : u.byteLength), s = '';
      for (var i = 0; i < b.length; i++) s += String.fromCharCode(b[i]);
      return decodeURIComponent(escape(s));
    };
  }
})(globalThis);
