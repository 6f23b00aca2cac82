"use strict";
// The page's sounds, all made here with the Web Audio API (no sound files):
// * short tones (the warning bell of a clock, the turn change), silent unless the
//   page's #sound box is ticked;
// * the background sound of the fencing hall (#hall) and one of five pieces of music
//   (#music), as the rulebook's "Ansicht" offers them.  Both are off until the player
//   picks them, and the choice is remembered in this browser (localStorage).  A page
//   opened with a remembered choice starts its context at the first tap or key, since
//   browsers let a page make sound only after a gesture.
const Sound = { audio: null, hall: null, music: null, timer: null, live: new Set() };
const SOUND_KEYS = { hall: "fechtbuch.hall", music: "fechtbuch.music" };

function audioContext() {
  Sound.audio = Sound.audio || new AudioContext();
  return Sound.audio;
}

function beep(frequency, milliseconds, volume) {
  if (!document.getElementById("sound").checked || !window.AudioContext) return;
  const audio = audioContext();
  audio.resume();  // suspended while neither the hall nor a piece plays
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  gain.gain.value = volume;
  oscillator.frequency.value = frequency;
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start();
  oscillator.stop(audio.currentTime + milliseconds / 1000);
}

// ---- the pieces: a scale, a tempo and two voices written as scale degrees --------
// A degree counts steps of the scale from its root (7 is the octave above, -7 below);
// "." is a rest, "-" holds the note before.  Each piece loops.
const SCALES = {
  dorian: [0, 2, 3, 5, 7, 9, 10], aeolian: [0, 2, 3, 5, 7, 8, 10], ionian: [0, 2, 4, 5, 7, 9, 11],
  mixolydian: [0, 2, 4, 5, 7, 9, 10], pentatonic: [0, 2, 4, 7, 9],
};
const PIECES = {
  saltarello: {
    root: 62, scale: "dorian", step: 0.16, lead: "triangle", bass: "sine", volume: 0.07,
    melody: "4 5 4 3 2 1 0 . 0 2 4 . 7 6 5 4 3 4 5 . 4 3 2 . 1 2 3 4 3 2 1 0 - . 4 . 4 5 6 7 6 5 4 - 2 . 0 -",
    bassline: "-7 . . -3 . . -7 . . -3 . . -5 . . -2 . . -7 . . -3 . . -9 . . -5 . . -7 . . -7 . .",
  },
  pavane: {
    root: 57, scale: "aeolian", step: 0.42, lead: "sine", bass: "triangle", volume: 0.08,
    melody: "0 - 2 3 4 - 3 2 1 - 0 - 2 - 1 . 4 - 5 4 3 - 2 1 0 - - - . . . .",
    bassline: "-7 - - - -5 - - - -3 - - - -6 - - - -7 - - - -2 - - - -7 - - - . - - -",
  },
  galliarde: {
    root: 60, scale: "ionian", step: 0.2, lead: "triangle", bass: "sine", volume: 0.07,
    melody: "0 - 2 4 - 5 4 2 0 1 - 2 3 - 4 5 - 3 4 - 2 0 - . 7 - 6 5 4 3 2 - 1 0 - .",
    bassline: "-7 . -3 -7 . -3 -6 . -2 -6 . -2 -7 . -3 -5 . -1 -9 . -5 -7 . .",
  },
  nachtwache: {
    root: 64, scale: "pentatonic", step: 0.5, lead: "sine", bass: "sine", volume: 0.07,
    melody: "5 . 3 . 4 2 . . 1 . 2 3 0 . . . 5 . 6 . 4 3 . . 2 . 1 . 0 . . .",
    bassline: "-5 - - - -3 - - - -4 - - - -5 - - -",
  },
  turnier: {
    root: 55, scale: "mixolydian", step: 0.18, lead: "square", bass: "triangle", volume: 0.035,
    melody: "0 0 0 4 - . 4 4 4 7 - . 7 6 5 4 3 4 2 - - . . . 4 4 5 6 - 5 4 - 3 2 - 0 - - . .",
    bassline: "-7 . -3 . -7 . -3 . -7 . -3 . -5 . -1 . -7 . -3 . -5 . -7 .",
  },
};

function frequency(root, scale, degree) {
  const steps = SCALES[scale];
  const octave = Math.floor(degree / steps.length);
  const midi = root + 12 * octave + steps[degree - octave * steps.length];
  return 440 * 2 ** ((midi - 69) / 12);
}

// the notes of a voice as [start step, length in steps, degree]
function notes(line) {
  const tokens = line.split(/\s+/);
  const out = [];
  tokens.forEach((token, index) => {
    if (token === "-" && out.length && out[out.length - 1][0] + out[out.length - 1][1] === index) out[out.length - 1][1] += 1;
    else if (token !== "." && token !== "-") out.push([index, 1, Number(token)]);
  });
  return { notes: out, steps: tokens.length };
}

// a sounding node that the page keeps until it ends, with the part's output it plays
// on (so "off" can stop it at once)
function keep(source, output) {
  source.output = output;
  Sound.live.add(source);
  source.onended = () => Sound.live.delete(source);
  return source;
}

function tone(output, wave, hertz, at, seconds, volume) {
  const audio = audioContext();
  const oscillator = keep(audio.createOscillator(), output);
  const gain = audio.createGain();
  oscillator.type = wave;
  oscillator.frequency.value = hertz;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + seconds);
  oscillator.connect(gain).connect(output);
  oscillator.start(at);
  oscillator.stop(at + seconds + 0.05);
}

// ---- the fencing hall: the murmur of a large room, blades that meet, steps ---------
function hallNoise(output) {
  const audio = audioContext();
  const buffer = audio.createBuffer(1, audio.sampleRate * 3, audio.sampleRate);
  const data = buffer.getChannelData(0);
  let last = 0;
  for (let i = 0; i < data.length; i += 1) {  // brown noise: a random walk, kept small
    last = (last + 0.02 * (Math.random() * 2 - 1)) / 1.02;
    data[i] = last * 3.5;
  }
  const source = keep(audio.createBufferSource(), output);
  source.buffer = buffer;
  source.loop = true;
  const filter = audio.createBiquadFilter();
  filter.type = "lowpass";
  filter.frequency.value = 500;
  const gain = audio.createGain();
  gain.gain.value = 0.25;
  source.connect(filter).connect(gain).connect(output);
  source.start();
}

function hallEvent(output, at) {
  if (Math.random() < 0.04) {  // two blades meet: a bright, quickly fading ring
    const hertz = 2200 + Math.random() * 1600;
    tone(output, "sine", hertz, at, 0.35, 0.03);
    tone(output, "sine", hertz * 1.51, at, 0.25, 0.015);
  } else if (Math.random() < 0.12) {  // a step on the boards
    tone(output, "sine", 70 + Math.random() * 30, at, 0.12, 0.06);
  }
}

// ---- the player: a look-ahead scheduler for the hall and the chosen piece ----------
function scheduleAhead() {
  const audio = Sound.audio;
  const horizon = audio.currentTime + 0.6;
  if (Sound.hall) {
    while (Sound.hall.next < horizon) { hallEvent(Sound.hall.output, Sound.hall.next); Sound.hall.next += 0.15; }
  }
  const music = Sound.music;
  if (music) {
    const piece = PIECES[music.name];
    while (music.next < horizon) {
      for (const [voice, wave, volume] of [[music.melody, piece.lead, piece.volume], [music.bassline, piece.bass, piece.volume * 0.8]]) {
        const at = music.count % voice.steps;
        for (const [start, length, degree] of voice.notes) {
          if (start === at) tone(music.output, wave, frequency(piece.root, piece.scale, degree), music.next, length * piece.step * 0.95, volume);
        }
      }
      music.count += 1;
      music.next += piece.step;
    }
  }
}

function output() {
  const audio = audioContext();
  const gain = audio.createGain();
  gain.connect(audio.destination);
  return gain;
}

function startHall() {
  if (Sound.hall) return;
  Sound.hall = { output: output(), next: audioContext().currentTime + 0.1 };
  hallNoise(Sound.hall.output);
}

function startMusic(name) {
  if (Sound.music && Sound.music.name === name) return;
  stopPart("music");
  const piece = PIECES[name];
  Sound.music = { name, output: output(), next: audioContext().currentTime + 0.1, count: 0, melody: notes(piece.melody), bassline: notes(piece.bassline) };
}

// stops one part (its output is cut, so its scheduled notes fall silent at once)
function stopPart(part) {
  const playing = Sound[part];
  if (!playing) return;
  playing.output.disconnect();
  for (const source of [...Sound.live]) {
    if (source.output === playing.output) { source.stop(); Sound.live.delete(source); }
  }
  Sound[part] = null;
}

function applySound() {
  const hall = document.getElementById("hall").checked;
  const music = document.getElementById("music").value;
  localStorage.setItem(SOUND_KEYS.hall, hall ? "on" : "off");
  localStorage.setItem(SOUND_KEYS.music, music);
  if (!window.AudioContext) return;
  if (hall) startHall(); else stopPart("hall");
  if (PIECES[music]) startMusic(music); else stopPart("music");
  clearInterval(Sound.timer);
  Sound.timer = null;
  if (Sound.hall || Sound.music) {
    audioContext().resume();
    scheduleAhead();
    Sound.timer = setInterval(scheduleAhead, 200);
  } else if (Sound.audio) {
    Sound.audio.suspend();
  }
}

// what plays, for the page's tests: the parts, the nodes sounding and the context's state
function soundState() {
  return {
    hall: Boolean(Sound.hall), music: Sound.music ? Sound.music.name : null,
    live: Sound.live.size, context: Sound.audio ? Sound.audio.state : null,
  };
}

function setUpSound() {
  const hall = document.getElementById("hall");
  const music = document.getElementById("music");
  if (!hall || !music) return;
  for (const name of ["off", ...Object.keys(PIECES)]) {  // worded by loadTexts like every [data-i18n]
    music.append(Object.assign(document.createElement("option"), { value: name }));
    music.lastChild.dataset.i18n = "view.music." + name;
  }
  hall.checked = localStorage.getItem(SOUND_KEYS.hall) === "on";
  const remembered = localStorage.getItem(SOUND_KEYS.music);
  music.value = PIECES[remembered] ? remembered : "off";
  hall.addEventListener("change", applySound);
  music.addEventListener("change", applySound);
  if (hall.checked || PIECES[music.value]) {
    applySound();
    const wake = () => { if (Sound.audio) Sound.audio.resume(); };
    document.addEventListener("pointerdown", wake, { once: true });
    document.addEventListener("keydown", wake, { once: true });
  }
}

setUpSound();
