/**
 * What the carousel's island reads beside its tag: the button's labels (the HTML holds only "pause")
 * and the time each slide shows (spec: 2500 ms).
 */
export interface CarouselIslandData {
  play: string;
  pause: string;
  intervalMs: number;
}
