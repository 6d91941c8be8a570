/**
 * The steps a system takes by itself, recorded as the packed explorer takes
 * them, so that the liveness search's lassos are found on edges the search
 * already computed instead of expanding each state again (see
 * docs/properties.md, 'How explore finds a lasso').
 *
 * States are the explorer's numbers (discovery order). Each state expanded
 * whose steps are recorded gets its edges: the number of the state a step
 * leads to and the steady modes the step belongs to (bits). A quiet state,
 * a state not yet expanded, and a state whose steps are not recorded have
 * no edges: under every mode they are a way out, as a quiet state or one
 * beyond a cycle search's region is. A bottom component found on such a
 * graph is therefore a bottom component of the whole graph: every state of
 * it was expanded and every edge of it stays inside it.
 */
import { bottomCycle, maskArray, stuckModes, TarjanScratch, type ModeMasks } from './explore-liveness.ts';

/** Edges one state is expected to add at most (the outbox's busiest states add a few dozen): {@link SteadyGraph.growthBytes} looks that far ahead. */
const EDGE_MARGIN = 4096;

/** An array of 32-bit integers that doubles as it fills. */
class Growable {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(capacity);
  }
  push(x: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x;
  }
}

/** The edges' modes, one element per edge: a byte where every mode fits one (see {@link maskArray}). */
class GrowableMasks {
  data: ModeMasks;
  length = 0;
  constructor(capacity: number, modes: number) {
    this.data = maskArray(modes, capacity);
  }
  push(x: number): void {
    if (this.length === this.data.length) {
      const grown = this.data instanceof Uint8Array ? new Uint8Array(this.data.length * 2) : new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = x;
  }
}

/** A bottom component with a cycle under one mode: the states' numbers, and the mode. */
export interface StoredComponent {
  readonly mode: number;
  readonly states: readonly number[];
}

export class SteadyGraph {
  /** Per state expanded, in number order: where its edges start. */
  private readonly firsts: Growable;
  private readonly targets: Growable;
  private readonly masks: GrowableMasks;
  /** Per state expanded: 1 when a lasso's stem may start there (the liveness phase passes through it). */
  private roots: Uint8Array;
  private readonly scratch = new TarjanScratch();
  /** The sizes at which {@link growthToAsk} last returned each growth. */
  private statesAsked = -1;
  private edgesAsked = -1;

  /**
   * Edges of `modes` steady modes (the masks given to {@link edge} are
   * below 2^modes). Room for `capacity` states and edges at first (the
   * arrays double as they fill): 2^16 by default, so that the memory bound
   * is asked about growths of a megabyte or more, as the visited set's, not
   * of a few kilobytes.
   */
  constructor(
    private readonly modes: number,
    capacity = 1 << 16,
  ) {
    this.firsts = new Growable(capacity);
    this.targets = new Growable(capacity);
    this.masks = new GrowableMasks(capacity, modes);
    this.roots = new Uint8Array(capacity);
  }

  /** States given to {@link begin} so far (numbers 0 to expanded - 1). */
  get expanded(): number {
    return this.firsts.length;
  }

  /** Edges recorded so far. */
  get edges(): number {
    return this.targets.length;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.firsts.data.byteLength + this.targets.data.byteLength + this.masks.data.byteLength + this.roots.byteLength;
  }

  /**
   * Bytes the arrays would allocate at once (they double) if the next state
   * and up to {@link EDGE_MARGIN} edges after it were recorded, else 0: the
   * explorer asks its memory bound before each state it expands.
   */
  get growthBytes(): number {
    return this.statesGrowth() + this.edgesGrowth();
  }

  /**
   * {@link growthBytes}, less the growths a former call already returned:
   * what the explorer asks its memory bound, so that each growth is asked
   * about once.
   */
  growthToAsk(): number {
    let bytes = 0;
    const states = this.statesGrowth();
    if (states > 0 && this.statesAsked !== this.roots.length) {
      this.statesAsked = this.roots.length;
      bytes += states;
    }
    const edges = this.edgesGrowth();
    if (edges > 0 && this.edgesAsked !== this.targets.data.length) {
      this.edgesAsked = this.targets.data.length;
      bytes += edges;
    }
    return bytes;
  }

  /** The states' arrays' growth at the next state, else 0 (they fill together). */
  private statesGrowth(): number {
    return this.firsts.length === this.firsts.data.length ? 2 * (this.firsts.data.byteLength + this.roots.byteLength) : 0;
  }

  /** The edges' arrays' growth within {@link EDGE_MARGIN} edges, else 0. */
  private edgesGrowth(): number {
    return this.targets.length + EDGE_MARGIN > this.targets.data.length ? 2 * (this.targets.data.byteLength + this.masks.data.byteLength) : 0;
  }

  /** The next state expanded (its number is {@link expanded}); its edges follow. `root`: a lasso's stem may start there. */
  begin(root: boolean): void {
    const id = this.firsts.length;
    if (id === this.roots.length) {
      const grown = new Uint8Array(this.roots.length * 2);
      grown.set(this.roots);
      this.roots = grown;
    }
    this.roots[id] = root ? 1 : 0;
    this.firsts.push(this.targets.length);
  }

  /** An edge of the state last begun: to state `target`, of the modes in `mask`. */
  edge(target: number, mask: number): void {
    this.targets.push(target);
    this.masks.push(mask);
  }

  /**
   * A bottom component with a cycle under some mode, reachable from a root
   * by its edges, among the states expanded so far (an edge to a state not
   * yet expanded is a way out), or null. The first mode that has one, in mode order;
   * of its components, the first Tarjan's algorithm closes, roots taken in
   * number order (breadth-first order, so near the start).
   */
  bottomComponent(): StoredComponent | null {
    const modes = this.modes;
    // The states expanded: an edge to a state beyond (not yet expanded) is a way out.
    const expanded = this.firsts.length;
    // The end of the last state's edges goes after the starts, in the array itself while it has room (the next state's start overwrites it).
    let first: Int32Array;
    if (expanded < this.firsts.data.length) first = this.firsts.data.subarray(0, expanded + 1);
    else {
      first = new Int32Array(expanded + 1);
      first.set(this.firsts.data);
    }
    first[expanded] = this.targets.length;
    const targets = this.targets.data.subarray(0, this.targets.length);
    const masks = this.masks.data.subarray(0, this.masks.length);
    const every = (1 << modes) - 1;
    const stuck = stuckModes(first, targets, masks, every, this.scratch);
    if (stuck === 0) return null;
    const roots = this.roots.subarray(0, expanded);
    for (let m = 0; m < modes; m++) {
      if ((stuck & (1 << m)) === 0) continue;
      const component = bottomCycle(first, targets, masks, 1 << m, this.scratch, roots);
      if (component !== null) return { mode: m, states: component };
    }
    return null;
  }
}
