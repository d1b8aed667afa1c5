// Stand-in for @azure-tools/test-utils-vitest (Microsoft's internal package in azure-sdk-for-js,
// not published to npm): only the `toSupportTracing` matcher, which the tests use. Like theirs,
// it installs a recording instrumenter with @azure/core-tracing's useInstrumenter, starts a
// "root" span, calls the operation with that span's context as tracingOptions, and then passes
// when (1) the spans form one tree under "root", (2) the names of root's direct children are
// exactly the expected names (as sets, in any order, repeats allowed), and (3) every span that
// was started has been ended.
import { useInstrumenter } from "@azure/core-tracing";

const SPAN_KEY = Symbol.for("@azure/core-tracing span");

class Context {
  constructor(map = new Map()) {
    this.map = map;
  }
  getValue(key) {
    return this.map.get(key);
  }
  setValue(key, value) {
    const map = new Map(this.map);
    map.set(key, value);
    return new Context(map);
  }
  deleteValue(key) {
    const map = new Map(this.map);
    map.delete(key);
    return new Context(map);
  }
}

class Span {
  constructor(name, parent) {
    this.name = name;
    this.parent = parent;
    this.ended = false;
    this.attributes = {};
  }
  end() {
    this.ended = true;
  }
  isRecording() {
    return true;
  }
  setStatus(status) {
    this.status = status;
  }
  setAttribute(name, value) {
    this.attributes[name] = value;
  }
  recordException(exception) {
    this.exception = exception;
  }
  addEvent() {}
}

class RecordingInstrumenter {
  constructor() {
    this.started = [];
  }
  startSpan(name, options = {}) {
    const context = options.tracingContext ?? new Context();
    const span = new Span(name, context.getValue(SPAN_KEY));
    this.started.push(span);
    return { span, tracingContext: context.setValue(SPAN_KEY, span) };
  }
  withContext(_context, callback, ...args) {
    return callback(...args);
  }
  parseTraceparentHeader() {
    return undefined;
  }
  createRequestHeaders() {
    return {};
  }
}

export async function toSupportTracing(callback, expectedSpanNames, options, thisArg) {
  const instrumenter = new RecordingInstrumenter();
  const { span: root, tracingContext } = instrumenter.startSpan("root", {});
  useInstrumenter(instrumenter);
  await callback.call(thisArg, { ...options, tracingOptions: { tracingContext } });
  root.end();
  const roots = instrumenter.started.filter((s) => s.parent === undefined);
  if (roots.length !== 1 || roots[0] !== root) {
    return {
      pass: false,
      message: () => `expected one root span, found ${roots.map((s) => s.name).join(", ")}`,
    };
  }
  const children = [
    ...new Set(instrumenter.started.filter((s) => s.parent === root).map((s) => s.name)),
  ].sort();
  const expected = [...new Set(expectedSpanNames)].sort();
  if (JSON.stringify(children) !== JSON.stringify(expected)) {
    return {
      pass: false,
      message: () =>
        `expected the spans under root to be [${expected.join(", ")}], found [${children.join(", ")}]`,
    };
  }
  const open = instrumenter.started.filter((s) => !s.ended).map((s) => s.name);
  if (open.length > 0) {
    return { pass: false, message: () => `spans left open: ${open.join(", ")}` };
  }
  return { pass: true, message: () => "tracing is supported" };
}
