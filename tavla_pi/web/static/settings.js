// The settings panel: the game of the next new match (Portes, Plakoto, Fevga or a
// tavli match), who plays it (two players, the computer as Black or White at one
// of six levels, a friend's board the config names: `friends` of /api/settings,
// each in its configured colour, or the online opponent it names: `online_color`), the coach and its blunder threshold, and the
// tournament clock, read from and saved to /api/settings.  The computer and the coach
// play Portes only: another game disables their choices.  Without GNU Backgammon they are disabled too, and the one line that
// says how to install it is shown.

import { LANGUAGES, t } from "./i18n.js";
import { VARIANTS, gameName, levelText } from "./words.js";

const COLORS = ["none", "black", "white"];
const FRIEND = "remote:"; // the "Who plays" value of a friend's board: FRIEND + its name
const ONLINE = "online"; // the "Who plays" value of the online opponent the config names
const LEVELS = ["beginner", "casual", "intermediate", "advanced", "expert", "world class"];

export class SettingsPanel {
  /** `root`: the panel's section; `link`: the daemon's line (link.js). */
  constructor(root, link) {
    this.root = root;
    this.link = link;
    this.current = null;
    this.dirty = false;
    this.$ = (id) => root.querySelector(`#${id}`);
    this.$("set-form").addEventListener("input", () => {
      this.dirty = true;
      this.showEngine();
    });
    this.$("set-form").addEventListener("submit", (e) => {
      e.preventDefault();
      this.save();
    });
  }

  /** Read the settings again (unless the form holds unsaved changes). */
  async load() {
    if (this.dirty) return;
    try {
      this.show(await this.link.settings());
    } catch (err) {
      this.status(t("set_refused", { error: String(err.message || err) }), "error");
    }
  }

  async save() {
    const color = this.$("set-color").value;
    const friend = color.startsWith(FRIEND) ? color.slice(FRIEND.length) : null;
    const changes = {
      color: color === "none" || color === ONLINE ? null : color,
      remote: friend,
      level: this.$("set-level").value,
      coach: this.$("set-coach").checked,
      blunder_threshold: Number(this.$("set-threshold").value),
      variant: this.$("set-variant").value,
      clock: this.$("set-clock-on").checked ? {
        delay_s: Number(this.$("set-clock-delay").value),
        reserve_s_per_point: Number(this.$("set-clock-reserve").value),
      } : null,
    };
    if (friend !== null) delete changes.color; // the friend's board plays its own colour
    if (this.current && this.current.online_color) changes.online = color === ONLINE;
    if (color === ONLINE) delete changes.color; // so does the online opponent
    if (!this.installed()) delete changes.level;
    if (this.current && this.current.speech) changes.speech = this.speechChanges();
    const r = await this.link.saveSettings(changes);
    if (!r.ok) {
      this.status(t("set_refused", { error: (r.body && r.body.error) || `HTTP ${r.status}` }), "error");
      return;
    }
    this.dirty = false;
    this.show(r.body);
    this.status(t(r.body.applied === "now" ? "set_saved_now" : "set_saved_next"));
    this.root.dataset.applied = r.body.applied;
  }

  installed() {
    return !this.current || this.current.engine.installed;
  }

  /** Fill the form from an answer of /api/settings. */
  show(s) {
    this.current = s;
    this.relabel();
    this.$("set-variant").value = s.variant || "portes";
    this.$("set-color").value = s.online ? ONLINE : s.remote ? FRIEND + s.remote : s.color || "none";
    this.$("set-level").value = s.level;
    this.$("set-coach").checked = s.coach;
    this.$("set-threshold").value = String(s.blunder_threshold);
    this.showSpeech(s.speech);
    this.showClock(s.clock);
  }

  /** The tournament clock of the next match (`clock` of /api/settings; null: none). */
  showClock(clock) {
    this.$("set-clock-on").checked = clock !== null && clock !== undefined;
    if (clock) {
      this.$("set-clock-delay").value = String(clock.delay_s);
      this.$("set-clock-reserve").value = String(clock.reserve_s_per_point);
    }
  }

  /** The board's voice (`speech` of /api/settings); its part hidden where there is none. */
  showSpeech(speech) {
    this.$("set-speech").hidden = this.$("set-speech").disabled = !speech; // none: not validated
    if (!speech) return;
    this.$("set-speech-on").checked = speech.enabled;
    this.$("set-speech-language").value = speech.language;
    this.$("set-speech-rate").value = String(speech.rate);
    this.$("set-speech-volume").value = String(speech.volume);
  }

  speechChanges() {
    const now = this.current.speech;
    const language = this.$("set-speech-language").value;
    const changes = {
      enabled: this.$("set-speech-on").checked,
      rate: Number(this.$("set-speech-rate").value),
      volume: Number(this.$("set-speech-volume").value),
    };
    // a language left as it was keeps following the page's
    if (!now.follows_page || language !== now.language) changes.language = language;
    return changes;
  }

  /** The choices' labels in the current language (the chosen values kept). */
  relabel() {
    const color = this.$("set-color");
    const level = this.$("set-level");
    const variant = this.$("set-variant");
    const chosen = [color.value, level.value, variant.value];
    variant.replaceChildren(...VARIANTS.map((v) => new Option(gameName(v), v)));
    if (chosen[2]) variant.value = chosen[2];
    const friends = (this.current && this.current.friends) || [];
    const online = this.current && this.current.online_color;
    color.replaceChildren(...COLORS.map((c) => new Option(t(`set_color_${c}`), c)),
      ...friends.map((name) => new Option(t("set_color_remote", { name }), FRIEND + name)),
      ...(online ? [new Option(t("set_color_online", { color: t(`c_${online}`) }), ONLINE)] : []));
    level.replaceChildren(...LEVELS.map((l) => new Option(levelText(l), l)));
    if (chosen[0]) color.value = chosen[0];
    if (chosen[1]) level.value = chosen[1];
    const voice = this.$("set-speech-language");
    const spoken = voice.value;
    voice.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => new Option(name, code)));
    if (spoken) voice.value = spoken;
    this.showEngine();
  }

  /** Without GNU Backgammon, or for a game other than Portes (the computer plays Portes
   * only, as does a friend's board): the one line that says why, only two players to
   * choose (or, without GNU Backgammon, a friend's board, which needs none) and no coach. */
  showEngine() {
    const missing = !this.installed();
    const portes = this.$("set-variant").value === "portes";
    this.root.dataset.engine = missing ? "missing" : "installed";
    const note = this.$("set-engine");
    note.hidden = !missing && portes;
    note.textContent = missing ? t("set_engine_missing", { message: this.current.engine.message })
      : portes ? "" : t("set_variant_computer");
    const human = missing || !portes;
    const needsNoEngine = (value) => value.startsWith(FRIEND) || value === ONLINE;
    const shut = (value) => value !== "none" && (!portes || (missing && !needsNoEngine(value)));
    for (const option of this.$("set-color").options) option.disabled = shut(option.value);
    if (shut(this.$("set-color").value)) this.$("set-color").value = "none";
    this.$("set-level").disabled = human || needsNoEngine(this.$("set-color").value);
    this.$("set-coach").disabled = human;  // the coach reads GNU Backgammon's Portes
    this.$("set-threshold").disabled = human;
  }

  status(text, kind = "info") {
    const line = this.$("set-status");
    line.textContent = text;
    line.dataset.kind = kind;
  }
}
