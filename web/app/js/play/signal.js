// Telling the person that a decision is theirs when they look elsewhere: the
// tab's title starts with "● Your turn" while a decision waits for them (and
// goes back once it is answered), and, when they asked for it, a short beep
// as each decision arrives. The sound is off unless switched on; the choice
// is kept in localStorage. The beep is made with WebAudio: no sound file.
export const TITLE_MARK = '● Your turn · ';
const SOUND_KEY = 'metropolis.sound';

// The title with the mark when `mine`, without it otherwise.
export function markedTitle(title, mine) {
  const bare = title.startsWith(TITLE_MARK) ? title.slice(TITLE_MARK.length) : title;
  return mine ? TITLE_MARK + bare : bare;
}

export function soundWanted(storage = globalThis.localStorage) {
  try {
    return storage?.getItem(SOUND_KEY) === 'on';
  } catch {
    return false; // storage refused (private mode): the default, off
  }
}

export function setSoundWanted(on, storage = globalThis.localStorage) {
  try {
    storage?.setItem(SOUND_KEY, on ? 'on' : 'off');
  } catch {
    // not kept: it holds for this page only
  }
}

export class TurnSignal {
  constructor() {
    this.mine = false;
    this.beeps = 0;
    this.audio = null;
    this.sound = soundWanted();
  }

  // Called at every redraw (and by the page's clock, since the router sets
  // the title after the page is drawn): marks or unmarks the title, and beeps
  // when a decision has just become the person's.
  update(mine) {
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
    document.title = markedTitle(document.title, false);
  }
}
