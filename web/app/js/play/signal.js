// Telling the person that a decision is theirs when they look elsewhere: the
// tab's title starts with "● Your turn" while a decision waits for them (and
// goes back once it is answered), and, when they asked for it, a short beep
// as each decision arrives. The sound is off unless switched on; the choice
// is kept in localStorage. The beep is made with WebAudio: no sound file.
import { read, write } from '../storage.js';

export const TITLE_MARK = '● Your turn · ';
const SOUND_KEY = 'metropolis.sound';

// The title with the mark when `mine`, without it otherwise.
export function markedTitle(title, mine) {
  const bare = title.startsWith(TITLE_MARK) ? title.slice(TITLE_MARK.length) : title;
  return mine ? TITLE_MARK + bare : bare;
}

// Storage refused (private mode): the default, off; a choice not kept holds
// for this page only.
export function soundWanted(storage) {
  return read(SOUND_KEY, { storage }) === 'on';
}

export function setSoundWanted(on, storage) {
  write(SOUND_KEY, on ? 'on' : 'off', { storage });
}

export class TurnSignal {
  constructor() {
    this.mine = false;
    this.beeps = 0;
    this.audio = null;
    this.sound = soundWanted();
    this.stopped = false;
  }

  // Called at every redraw (and by the page's clock, since the router sets
  // the title after the page is drawn): marks or unmarks the title, and beeps
  // when a decision has just become the person's.
  update(mine) {
    // After the page is left (an answer refused late redraws it): the title
    // is the next page's.
    if (this.stopped) return;
    const title = markedTitle(document.title, mine);
    if (title !== document.title) document.title = title;
    if (mine && !this.mine && this.sound) this.beep();
    this.mine = mine;
  }

  setSound(on) {
    this.sound = on;
    setSoundWanted(on);
    // The toggle's click lets the page start audio (browsers allow it only
    // after a gesture): the context is made there, and a beep says "on".
    if (on) this.beep();
  }

  beep() {
    ++this.beeps;
    try {
      this.audio ??= new AudioContext();
      const ctx = this.audio;
      // Made before any click (the sound kept on over a reload), the context
      // starts suspended; the first gesture lets resume() start it.
      if (ctx.state === 'suspended') ctx.resume().catch(() => {});
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.12, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.16);
    } catch {
      // no audio on this device: the title still says it
    }
  }

  clear() {
    this.mine = false;
    this.stopped = true;
    document.title = markedTitle(document.title, false);
    this.audio?.close().catch(() => {});
    this.audio = null;
  }
}
