// The page's line to the daemon: GET /api/state, POST /api/sim (one action at a
// time, in order), GET and POST /api/settings and /api/online, and the event stream GET /api/events?leds=1, followed for as long
// as the page is open and reconnected by itself when the daemon goes away and comes back.
//
// With a token configured, open the page as /#token=YOUR_TOKEN: it is sent as
// "Authorization: Bearer ..." (so the stream is read with fetch, not EventSource).

const RETRY_MS = [250, 500, 1000, 2000];
const SILENCE_MS = 40000; // the daemon sends something at least every second

export class Link {
  /** `on`: {event(e), leds(frame), reset(), status("connecting"|"live"|"lost"), acted()} */
  constructor(on) {
    this.on = on;
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    this.headers = token ? { Authorization: `Bearer ${token}` } : {};
    this.queue = Promise.resolve();
    this.stopped = false;
  }

  async state() {
    return this._get("/api/state");
  }

  async settings() {
    return this._get("/api/settings");
  }

  /** POST changes of the opponent settings; resolves to {ok, status, body}. */
  saveSettings(changes) {
    return this._post("/api/settings", changes);
  }

  /** The online server's open matches and the chat (GET /api/online). */
  async online() {
    return this._get("/api/online");
  }

  /** Join a match or a player's, chat, or list again (POST /api/online): {ok, status, body}. */
  online_act(request) {
    return this._post("/api/online", request);
  }

  /** Ask the board's voice to repeat or read the position; resolves to {ok, status, body}. */
  askSpeech(what) {
    return this._post("/api/speech", { ask: what });
  }

  /** The WAV of `text` said in `language` (a Blob); throws with the server's error. */
  async speechAudio(text, language) {
    const r = await fetch("/api/speech/audio", {
      method: "POST",
      headers: { ...this.headers, "Content-Type": "application/json" },
      body: JSON.stringify({ text, language }),
    });
    if (!r.ok) {
      let body = {};
      try { body = await r.json(); } catch { /* an empty answer */ }
      throw new Error(body.error || `HTTP ${r.status}`);
    }
    return r.blob();
  }

  /** POST one scenario action after the ones before it; resolves to {ok, status, body}. */
  sim(action) {
    const run = async () => {
      const result = await this._post("/api/sim", action);
      if (result.status) this.on.acted();
      return result;
    };
    const result = this.queue.then(run);
    this.queue = result.then(() => undefined);
    return result;
  }

  async _get(path) {
    const r = await fetch(path, { headers: this.headers, cache: "no-store" });
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || `HTTP ${r.status}`);
    return body;
  }

  /** POST `data` as JSON; resolves to {ok, status, body} (status 0: no answer at all). */
  async _post(path, data) {
    try {
      const r = await fetch(path, {
        method: "POST",
        headers: { ...this.headers, "Content-Type": "application/json" },
        body: JSON.stringify(data),
      });
      let body = {};
      try { body = await r.json(); } catch { /* an empty or broken answer */ }
      return { ok: r.ok, status: r.status, body };
    } catch (err) {
      return { ok: false, status: 0, body: { error: String(err.message || err) } };
    }
  }

  /** Follow the event stream until stop(), reconnecting after every loss. */
  async follow() {
    let attempt = 0;
    this.on.status("connecting");
    while (!this.stopped) {
      const began = Date.now();
      try {
        await this._stream();
      } catch { /* refused, reset or silent: try again */ }
      if (this.stopped) return;
      this.on.status("lost");
      if (Date.now() - began > 5000) attempt = 0;
      await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      attempt += 1;
    }
  }

  stop() {
    this.stopped = true;
    if (this.abort) this.abort.abort();
  }

  async _stream() {
    this.abort = new AbortController();
    let timer = null;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.abort.abort(), SILENCE_MS);
    };
    try {
      const r = await fetch("/api/events?leds=1", {
        headers: this.headers, signal: this.abort.signal, cache: "no-store",
      });
      if (!r.ok || !r.body) throw new Error(`HTTP ${r.status}`);
      this.on.reset();
      this.on.status("live");
      watch();
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        watch();
        buffer += value;
        const blocks = buffer.split("\n\n");
        buffer = blocks.pop();
        for (const block of blocks) this._dispatch(block);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  _dispatch(block) {
    let name = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) name = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
    }
    if (!data.length) return;
    let value;
    try { value = JSON.parse(data.join("\n")); } catch { return; }
    if (name === "leds") this.on.leds(value);
    else if (name === "message") this.on.event(value);
  }
}

export function sleep(ms) {
  return new Promise((ok) => setTimeout(ok, ms));
}
