"use strict";
// Short tones for both pages (Web Audio, no files): the warning bell of a clock and the
// turn change.  Silent unless the page's #sound box is ticked.
const Sound = { audio: null };

function beep(frequency, milliseconds, volume) {
  if (!document.getElementById("sound").checked || !window.AudioContext) return;
  Sound.audio = Sound.audio || new AudioContext();
  const oscillator = Sound.audio.createOscillator();
  const gain = Sound.audio.createGain();
  gain.gain.value = volume;
  oscillator.frequency.value = frequency;
  oscillator.connect(gain).connect(Sound.audio.destination);
  oscillator.start();
  oscillator.stop(Sound.audio.currentTime + milliseconds / 1000);
}
