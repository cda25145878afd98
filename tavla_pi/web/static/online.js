// The online panel (docs/ONLINE.md), shown while the board is set for online play
// (`online` of /api/state): the server and the match, the server's open matches (each
// joined with a click: a new match on the board), a player's match joined by name, and
// the chat with the opponent, read from and sent to /api/online.

import { t } from "./i18n.js";

export class OnlinePanel {
  /** `root`: the panel's section; `link`: the daemon's line (link.js). */
  constructor(root, link) {
    this.root = root;
    this.link = link;
    this.online = null;
    this.$ = (id) => root.querySelector(`#${id}`);
    this.$("online-refresh").addEventListener("click", () => this.act({ list: true }));
    this.$("online-player-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.act({ player: this.$("online-player").value });
    });
    this.$("online-say-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.$("online-say");
      this.act({ say: text.value }).then((ok) => { if (ok) text.value = ""; });
    });
    this.$("online-matches").addEventListener("click", (e) => {
      const button = e.target.closest("button[data-match]");
      if (button) this.act({ join: Number(button.dataset.match) });
    });
  }

  /** Show the `online` of /api/state (null: the panel is hidden). */
  update(online) {
    this.online = online || null;
    this.root.hidden = this.online === null;
    document.body.dataset.online = this.online === null ? "off"
      : this.online.seeking ? "seeking" : this.online.match ? "match" : "idle";
    if (this.online !== null) this.$("online-status").textContent = this.statusText();
  }

  statusText() {
    const o = this.online;
    const lines = [o.connected ? t("online_connected", { server: o.server, user: o.user || "" })
      : t("online_offline", { server: o.server })];
    if (o.match && o.match.opponent) {
      lines.push(t("online_match", { id: o.match.id, opponent: o.match.opponent, n: o.match.points }));
    } else if (o.match) {
      lines.push(t("online_waiting", { id: o.match.id }));
    }
    if (o.seeking) lines.push(t("online_seeking"));
    if (o.trouble) lines.push(o.trouble);
    return lines.join(" · ");
  }

  /** Read the open matches and the chat again (while the panel is shown). */
  async load() {
    if (this.online === null) return;
    try {
      this.show(await this.link.online());
    } catch (err) {
      this.note(String(err.message || err), "error");
    }
  }

  show(listing) {
    const list = this.$("online-matches");
    list.replaceChildren(...listing.matches.map((m) => {
      const item = document.createElement("li");
      item.dataset.match = String(m.id);
      const name = document.createElement("span");
      name.textContent = t("online_listing", { name: m.name, n: m.points });
      const join = document.createElement("button");
      join.type = "button";
      join.dataset.match = String(m.id);
      join.textContent = t("online_join");
      item.append(name, " ", join);
      return item;
    }));
    if (!listing.matches.length) {
      const none = document.createElement("li");
      none.textContent = t("online_none");
      list.append(none);
    }
    this.$("online-chat").replaceChildren(...listing.chat.map((c) => {
      const line = document.createElement("li");
      line.textContent = `${c.player}: ${c.message}`;
      return line;
    }));
  }

  /** POST one request to /api/online; whether it was taken. */
  async act(request) {
    const r = await this.link.online_act(request);
    if (!r.ok) {
      this.note(t("online_refused", { error: (r.body && r.body.error) || `HTTP ${r.status}` }), "error");
      return false;
    }
    this.note("");
    this.show(r.body);
    setTimeout(() => this.load(), 500); // the server's answer comes a moment later
    return true;
  }

  note(text, kind = "info") {
    const line = this.$("online-note");
    line.textContent = text;
    line.dataset.kind = kind;
  }
}
