/*
 * The Java shim of lock-oracles' holder protocol, version 1 (docs/holder-protocol.md): it loads a
 * target class (LockTarget.java: public methods named as targets/contract.ts's members), says
 * `ready` on fd 4, then answers the harness's requests from fd 3, one JSON object per line, each
 * init/call/shutdown on a thread of its own. JDK 17, no dependencies (a small JSON reader and
 * writer are at the end). The harness compiles it with the target (`javac`, cached) and runs
 * `java -cp <classes>:<--classpath> LockOracles <target class>`. Kotlin targets use it too.
 *
 * A target: `public class LockTarget { public Object acquire(LockOracles.Env env) … }`; acquire
 * returns a lease (a Map or any object; its `token` / `fence`, as a map entry, record component or
 * field, are reported) or null when denied; release(env, lease), extend(env, lease, long ttlMs),
 * job(env), write(env, String), read(env), query(env, String sql), storeKey(env), connect(env),
 * close(env). Optional static fields NAME, DESCRIPTION, FENCE_STORE ("postgres").
 */
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

public final class LockOracles {
  public static final int PROTOCOL = 1;
  static final String SDK = "LockOracles.java 1";
  static final List<String> MEMBERS = List.of("connect", "storeKey", "acquire", "release", "extend", "query", "job",
      "leader", "timeout", "write", "read", "stamp", "decide", "schedule", "inspect", "node", "close");

  /** Thrown by {@link Env#effect} when nobody can say whether the write reached the resource. */
  public static final class EffectIndefinite extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EffectIndefinite(String reason) {
      super("the effect's outcome is indefinite: " + reason);
    }
  }

  /** The resource's answer to a protected write: accepted in order seq, or refused (a stale fence). */
  public record EffectReceipt(boolean accepted, long seq, String reason) {
    public boolean definite() {
      return true;
    }
  }

  /** What a member is given: the store, the lock's key and TTL, parameters, and the calls to the harness. */
  public static final class Env {
    public final String holder, url, key, dir, fenceUrl, counterUrl, masterName;
    public final long ttlMs;
    public final Map<String, Object> params;
    public final List<Object> urls, sentinels;
    public final Map<String, Object> init;
    volatile boolean stopping;
    private final LockOracles shim;

    Env(LockOracles shim, String holder, Map<String, Object> init) {
      this.shim = shim;
      this.holder = holder;
      this.init = init;
      url = (String) init.get("url");
      key = (String) init.get("key");
      dir = (String) init.get("dir");
      fenceUrl = (String) init.get("fenceUrl");
      counterUrl = (String) init.get("counterUrl");
      masterName = (String) init.get("masterName");
      ttlMs = ((Number) init.getOrDefault("ttlMs", 0L)).longValue();
      params = asMap(init.getOrDefault("params", Map.of()));
      urls = asList(init.get("urls"));
      sentinels = asList(init.get("sentinels"));
    }

    /** True once the harness asked the job, leader or schedule to stop (the protocol's abort). */
    public boolean isStopping() {
      return stopping;
    }

    /** A parameter's value, or `fallback` when the run did not set it. */
    public Object param(String name, Object fallback) {
      return params.getOrDefault(name, fallback);
    }

    /** The protected write: blocks until the harness answers; throws EffectIndefinite when it cannot say. */
    public EffectReceipt effect(String name, Map<String, Object> detail) {
      return shim.effect(name, detail == null ? Map.of() : detail);
    }

    /** A named point the harness may hold the holder at (a latch): blocks until it lets the holder go. */
    public void seam(String name) {
      shim.seam(name);
    }

    /** A line in the run's history, attributed to this holder. */
    public void log(String message) {
      shim.send(Map.of("t", "log", "message", message));
    }
  }

  // ---- the shim ----

  private final OutputStream out;
  private final Object target;
  private final Map<String, Method> methods = new LinkedHashMap<>();
  private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
  private final Map<Long, Object> leases = new ConcurrentHashMap<>();
  private final List<Object> schedules = new ArrayList<>();
  private final AtomicLong callIds = new AtomicLong(), leaseIds = new AtomicLong();
  private final String holder = System.getenv().getOrDefault("LOCK_ORACLES_HOLDER", "A");
  private volatile Env env;
  private volatile CompletableFuture<Void> shutdownClose;

  private LockOracles(OutputStream out, Object target) {
    this.out = out;
    this.target = target;
    for (Method m : target.getClass().getMethods()) {
      if (MEMBERS.contains(m.getName()) && m.getDeclaringClass() != Object.class) methods.put(m.getName(), m);
    }
  }

  public static void main(String[] args) throws Exception {
    OutputStream out = new FileOutputStream(inherited(4));
    InputStream in = new BufferedInputStream(new FileInputStream(inherited(3)));
    Object target;
    try {
      target = Class.forName(args[0]).getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      write(out, Map.of("t", "load-error", "code", "no-target", "message",
          "no public class " + args[0] + " with a public no-argument constructor in " + System.getenv("LOCK_ORACLES_TARGET")));
      System.exit(1);
      return;
    } catch (Throwable e) {
      Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
      write(out, Map.of("t", "load-error", "code", "load", "message", stackTrace(cause)));
      System.exit(1);
      return;
    }
    new LockOracles(out, target).serve(in);
  }

  /**
   * An inherited file descriptor. The harness's fds 3 and 4 may be socket pairs, which
   * /proc/self/fd cannot reopen, so the descriptor is wrapped as it is: FileDescriptor's
   * constructor, opened to the shim by the launch's `--add-opens java.base/java.io=ALL-UNNAMED`.
   */
  private static FileDescriptor inherited(int fd) throws ReflectiveOperationException {
    var constructor = FileDescriptor.class.getDeclaredConstructor(int.class);
    constructor.setAccessible(true);
    return constructor.newInstance(fd);
  }

  private void serve(InputStream in) throws IOException {
    Map<String, Object> ready = new LinkedHashMap<>();
    ready.put("t", "ready");
    ready.put("protocol", PROTOCOL);
    ready.put("language", "java");
    ready.put("runtime", Runtime.version().toString());
    ready.put("sdk", SDK);
    ready.put("pid", ProcessHandle.current().pid());
    ready.put("members", new ArrayList<>(methods.keySet()));
    for (String[] field : new String[][] {{"NAME", "name"}, {"DESCRIPTION", "description"}, {"FENCE_STORE", "fenceStore"}}) {
      Object value = staticField(field[0]);
      if (value != null) ready.put(field[1], value);
    }
    send(ready);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b; (b = in.read()) != -1; ) {
      if (b != '\n') {
        line.write(b);
        continue;
      }
      String text = line.toString(StandardCharsets.UTF_8);
      line.reset();
      Object message;
      try {
        message = new Json(text).value();
      } catch (RuntimeException e) {
        send(Map.of("t", "log", "code", "bad-message", "message", "not JSON: " + text));
        continue;
      }
      if (message instanceof Map<?, ?> map) handle(asMap(map));
      else send(Map.of("t", "log", "code", "bad-message", "message", "not a JSON object: " + text));
    }
    // End of file on fd 3 (a torn last line is dropped): the harness is gone. Effects still waiting are indefinite.
    for (CompletableFuture<Map<String, Object>> waiting : pending.values()) waiting.complete(null);
    out.flush();
    Runtime.getRuntime().halt(0);
  }

  private void handle(Map<String, Object> m) {
    Object t = m.get("t");
    Long id = m.get("id") instanceof Number n ? n.longValue() : null;
    switch (String.valueOf(t)) {
      case "init" -> spawn(id, () -> init(asMap(m.get("init"))));
      case "call" -> spawn(id, () -> call(m));
      case "selftest" -> spawn(id, () -> selftest(m));
      case "effect-reply", "seam-reply" -> {
        CompletableFuture<Map<String, Object>> waiting = pending.remove(id);
        if (waiting != null) waiting.complete(m);
      }
      case "abort" -> {
        if (env != null) env.stopping = true;
      }
      case "shutdown" -> spawn(id, () -> {
        shutdownClose = CompletableFuture.runAsync(() -> invokeUnchecked("close"));
        shutdownClose.join();
        return null;
      });
      case "close" -> new Thread(() -> close(id)).start();
      case "fs-gate" -> {}
      case "clock" -> send(failure(id, "unsupported", "the Java shim has no fake clock: the clock faults are Node-only"));
      default -> {
        Map<String, Object> bad = failure(id, "bad-message", "unknown message type " + t);
        if (id == null) bad.put("t", "log");
        send(bad);
      }
    }
  }

  private interface Work {
    Object run() throws Throwable;
  }

  /** Runs one request on a thread of its own and answers it with one result. */
  private void spawn(Long id, Work work) {
    Thread thread = new Thread(() -> {
      double began = now();
      Map<String, Object> result;
      try {
        Object value = work.run();
        result = ok(id);
        result.put("value", value);
      } catch (ShimError e) {
        result = failure(id, e.code, e.getMessage());
      } catch (Throwable e) {
        Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
        if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) cause = cause.getCause();
        if (cause instanceof InvocationTargetException && cause.getCause() != null) cause = cause.getCause();
        result = failure(id, "threw", stackTrace(cause));
      }
      result.put("began", began);
      result.put("ended", now());
      send(result);
    }, "lock-oracles-" + id);
    thread.setDaemon(true);
    thread.start();
  }

  private Object init(Map<String, Object> init) throws Throwable {
    env = new Env(this, holder, init);
    if (methods.containsKey("connect")) invoke("connect", env);
    Map<String, Object> value = new LinkedHashMap<>();
    if (methods.containsKey("storeKey")) value.put("storeKey", toJsonable(invoke("storeKey", env)));
    return value;
  }

  private Object call(Map<String, Object> m) throws Throwable {
    if (env == null) throw new ShimError("not-ready", "a call before init");
    String member = String.valueOf(m.get("member"));
    List<Object> args = asList(m.get("args"));
    if (member.equals("decide")) return decide(args);
    if (!methods.containsKey(member)) throw new ShimError("no-member", "the target has no method " + member);
    List<Object> call = new ArrayList<>(List.of(env));
    if (member.equals("release") || member.equals("extend")) {
      long leaseId = m.get("leaseId") instanceof Number n ? n.longValue() : -1;
      Object lease = leases.get(leaseId);
      if (lease == null) throw new ShimError("unknown-lease", "lease " + m.get("leaseId") + " was not issued by this holder");
      call.add(lease);
    }
    call.addAll(args);
    Object returned = invoke(member, call.toArray());
    switch (member) {
      case "acquire":
        return lease(returned);
      case "extend":
        if (!(returned instanceof Boolean b)) throw new ShimError("bad-return", "extend returned " + returned + ": return true only when the store confirmed it, else false");
        return b;
      case "schedule":
        synchronized (schedules) {
          if (returned != null) schedules.add(returned);
        }
        return null;
      case "read":
        return returned == null ? null : String.valueOf(returned);
      case "inspect", "node":
        return toJsonable(returned);
      default:
        return null;
    }
  }

  private Object lease(Object returned) {
    if (returned == null || Boolean.FALSE.equals(returned)) return null;
    if (returned instanceof Boolean || returned instanceof Number || returned instanceof CharSequence) {
      throw new ShimError("bad-return", "acquire returned " + returned + ": return a lease object (a Map, a record) or null when denied");
    }
    long id = leaseIds.incrementAndGet();
    leases.put(id, returned);
    Map<String, Object> value = new LinkedHashMap<>(Map.of("leaseId", id));
    if (property(returned, "token") instanceof String token) value.put("token", token);
    if (property(returned, "fence") instanceof Number fence) value.put("fence", fence);
    return value;
  }

  private Object decide(List<Object> args) throws Throwable {
    if (!methods.containsKey("decide")) throw new ShimError("no-member", "the target has no method decide");
    Object value = args.get(0);
    String existingJson = String.valueOf(args.get(1));
    Object existing = existingJson.isEmpty() ? null : new Json(existingJson).value();
    Object incoming = methods.containsKey("stamp") ? invoke("stamp", env, value, existing)
        : new LinkedHashMap<>(Map.of("value", value, "updatedAt", System.currentTimeMillis()));
    Object replaces = invoke("decide", incoming, existing);
    if (!(replaces instanceof Boolean b)) throw new ShimError("bad-return", "decide returned " + replaces + ": return a boolean");
    StringBuilder json = new StringBuilder();
    writeJson(json, toJsonable(incoming));
    return Map.of("replaces", b, "incoming", json.toString());
  }

  private Object selftest(Map<String, Object> m) {
    switch (String.valueOf(m.get("op"))) {
      case "effect":
        try {
          EffectReceipt r = effect(String.valueOf(m.get("name")), asMap(m.getOrDefault("detail", Map.of())));
          Map<String, Object> seen = new LinkedHashMap<>();
          seen.put("accepted", r.accepted());
          seen.put("seq", r.seq());
          if (r.reason() != null) seen.put("reason", r.reason());
          return seen;
        } catch (EffectIndefinite e) {
          return Map.of("raised", "indefinite");
        }
      case "seam":
        seam(String.valueOf(m.get("name")));
        return null;
      case "log":
        env().log(String.valueOf(m.get("message")));
        return null;
      case "raise":
        throw new IllegalStateException(String.valueOf(m.get("message")));
      default:
        throw new ShimError("unsupported", "no selftest probe " + m.get("op"));
    }
  }

  private void close(Long id) {
    double began = now();
    Map<String, Object> result = ok(id);
    try {
      synchronized (schedules) {
        for (Object handle : schedules) {
          Method stop = handle instanceof AutoCloseable ? AutoCloseable.class.getMethod("close") : handle.getClass().getMethod("stop");
          stop.invoke(handle);
        }
      }
      if (shutdownClose != null) shutdownClose.join();
      else invoke("close", env());
      result.put("value", null);
    } catch (Throwable e) {
      result = failure(id, "threw", stackTrace(e instanceof InvocationTargetException ? e.getCause() : e));
    }
    result.put("began", began);
    result.put("ended", now());
    send(result);
    try {
      out.flush();
    } catch (IOException ignored) {
      // The harness is gone; exit anyway.
    }
    Runtime.getRuntime().halt(0);
  }

  private Env env() {
    return env != null ? env : new Env(this, holder, Map.of());
  }

  // ---- calls to the harness ----

  EffectReceipt effect(String name, Map<String, Object> detail) {
    Map<String, Object> reply = await(Map.of("t", "effect", "name", name, "detail", detail, "at", now()));
    if (reply == null) throw new EffectIndefinite("the harness closed the protocol pipe while the effect waited");
    if (!"definite".equals(reply.get("outcome"))) throw new EffectIndefinite(String.valueOf(reply.getOrDefault("reason", "no reason given")));
    Map<String, Object> receipt = asMap(reply.get("receipt"));
    return new EffectReceipt(Boolean.TRUE.equals(receipt.get("accepted")),
        receipt.get("seq") instanceof Number n ? n.longValue() : -1, (String) receipt.get("reason"));
  }

  void seam(String name) {
    await(Map.of("t", "seam", "name", name));
  }

  /** Sends a call with the next id and blocks until its reply; null when fd 3 ended first. */
  private Map<String, Object> await(Map<String, Object> message) {
    long id = callIds.incrementAndGet();
    CompletableFuture<Map<String, Object>> reply = new CompletableFuture<>();
    pending.put(id, reply);
    Map<String, Object> withId = new LinkedHashMap<>(message);
    withId.put("id", id);
    send(withId);
    return reply.join();
  }

  // ---- members by reflection ----

  private Object invoke(String member, Object... args) throws Throwable {
    Method method = methods.get(member);
    if (method == null) return null;
    Class<?>[] types = method.getParameterTypes();
    if (types.length != args.length) {
      throw new ShimError("bad-return", member + " takes " + types.length + " parameters; the protocol passes " + args.length + " (see targets/contract.ts)");
    }
    Object[] converted = new Object[args.length];
    for (int i = 0; i < args.length; i++) converted[i] = convert(args[i], types[i]);
    try {
      return method.invoke(target, converted);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private void invokeUnchecked(String member) {
    try {
      invoke(member, env());
    } catch (Throwable e) {
      throw new java.util.concurrent.CompletionException(e);
    }
  }

  private static Object convert(Object value, Class<?> type) {
    if (value instanceof Number n) {
      if (type == long.class || type == Long.class) return n.longValue();
      if (type == int.class || type == Integer.class) return n.intValue();
      if (type == double.class || type == Double.class) return n.doubleValue();
      if (type == String.class) return n.toString();
    }
    return value;
  }

  private Object staticField(String name) {
    try {
      Field field = target.getClass().getField(name);
      return Modifier.isStatic(field.getModifiers()) ? field.get(null) : null;
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  /** A lease's `token` or `fence`: a map entry, a record component / accessor, or a public field. */
  private static Object property(Object of, String name) {
    if (of instanceof Map<?, ?> map) return map.get(name);
    try {
      return of.getClass().getMethod(name).invoke(of);
    } catch (ReflectiveOperationException | RuntimeException e) {
      try {
        return of.getClass().getField(name).get(of);
      } catch (ReflectiveOperationException | RuntimeException e2) {
        return null;
      }
    }
  }

  // ---- output ----

  static final class ShimError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String code;

    ShimError(String code, String message) {
      super(message);
      this.code = code;
    }
  }

  private static Map<String, Object> ok(Long id) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("t", "result");
    result.put("id", id);
    result.put("ok", true);
    return result;
  }

  private static Map<String, Object> failure(Long id, String code, String error) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("t", "result");
    result.put("id", id);
    result.put("ok", false);
    result.put("code", code);
    result.put("error", error);
    return result;
  }

  void send(Map<String, Object> message) {
    try {
      write(out, message);
    } catch (IOException ignored) {
      // The harness is gone: fd 3's end exits this holder.
    }
  }

  /** One message, one line, one write, under a lock: two threads' messages never interleave. */
  private static void write(OutputStream out, Map<String, Object> message) throws IOException {
    StringBuilder json = new StringBuilder();
    writeJson(json, message);
    json.append('\n');
    byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
    synchronized (out) {
      out.write(bytes);
      out.flush();
    }
  }

  private static double now() {
    return System.nanoTime() / 1e6;
  }

  private static String stackTrace(Throwable e) {
    StringWriter text = new StringWriter();
    e.printStackTrace(new PrintWriter(text));
    return text.toString();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asMap(Object value) {
    return value instanceof Map<?, ?> map ? (Map<String, Object>) map : new LinkedHashMap<>();
  }

  @SuppressWarnings("unchecked")
  static List<Object> asList(Object value) {
    return value instanceof List<?> list ? (List<Object>) list : new ArrayList<>();
  }

  // ---- JSON ----

  /** A record becomes an object of its components; anything else not JSON, its string. */
  private static Object toJsonable(Object value) {
    if (value != null && value.getClass().isRecord()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (var c : value.getClass().getRecordComponents()) {
        try {
          map.put(c.getName(), toJsonable(c.getAccessor().invoke(value)));
        } catch (ReflectiveOperationException e) {
          map.put(c.getName(), null);
        }
      }
      return map;
    }
    return value;
  }

  static void writeJson(StringBuilder s, Object v) {
    if (v == null) s.append("null");
    else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) s.append(v);
    else if (v instanceof Number n) s.append(Double.isFinite(n.doubleValue()) ? String.valueOf(n.doubleValue()) : "null");
    else if (v instanceof Map<?, ?> map) {
      s.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) s.append(',');
        first = false;
        writeJson(s, String.valueOf(e.getKey()));
        s.append(':');
        writeJson(s, toJsonable(e.getValue()));
      }
      s.append('}');
    } else if (v instanceof Iterable<?> list) {
      s.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) s.append(',');
        first = false;
        writeJson(s, toJsonable(item));
      }
      s.append(']');
    } else if (v.getClass().isRecord()) writeJson(s, toJsonable(v));
    else {
      s.append('"');
      for (char c : v.toString().toCharArray()) {
        switch (c) {
          case '"' -> s.append("\\\"");
          case '\\' -> s.append("\\\\");
          case '\n' -> s.append("\\n");
          case '\r' -> s.append("\\r");
          case '\t' -> s.append("\\t");
          default -> {
            if (c < 0x20) s.append(String.format("\\u%04x", (int) c));
            else s.append(c);
          }
        }
      }
      s.append('"');
    }
  }

  /** A JSON reader: objects as LinkedHashMap, arrays as ArrayList, integers as Long, other numbers as Double. */
  static final class Json {
    private final String s;
    private int i;

    Json(String s) {
      this.s = s;
    }

    Object value() {
      Object v = read();
      skip();
      if (i != s.length()) throw new IllegalArgumentException("text after the JSON value at " + i);
      return v;
    }

    private void skip() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private Object read() {
      skip();
      if (i >= s.length()) throw new IllegalArgumentException("unexpected end of JSON");
      char c = s.charAt(i);
      if (c == '{') {
        i++;
        Map<String, Object> map = new LinkedHashMap<>();
        skip();
        if (s.charAt(i) == '}') {
          i++;
          return map;
        }
        while (true) {
          skip();
          String key = (String) read();
          skip();
          expect(':');
          map.put(key, read());
          skip();
          if (s.charAt(i++) == '}') return map;
          if (s.charAt(i - 1) != ',') throw new IllegalArgumentException("expected , or } at " + (i - 1));
        }
      }
      if (c == '[') {
        i++;
        List<Object> list = new ArrayList<>();
        skip();
        if (s.charAt(i) == ']') {
          i++;
          return list;
        }
        while (true) {
          list.add(read());
          skip();
          if (s.charAt(i++) == ']') return list;
          if (s.charAt(i - 1) != ',') throw new IllegalArgumentException("expected , or ] at " + (i - 1));
        }
      }
      if (c == '"') return string();
      if (s.startsWith("true", i)) return word(4, Boolean.TRUE);
      if (s.startsWith("false", i)) return word(5, Boolean.FALSE);
      if (s.startsWith("null", i)) return word(4, null);
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String number = s.substring(start, i);
      if (number.isEmpty()) throw new IllegalArgumentException("unexpected " + c + " at " + start);
      return number.matches("-?\\d+") ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
    }

    private Object word(int length, Object value) {
      i += length;
      return value;
    }

    private void expect(char c) {
      if (s.charAt(i++) != c) throw new IllegalArgumentException("expected " + c + " at " + (i - 1));
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') return b.toString();
        if (c != '\\') {
          b.append(c);
          continue;
        }
        char e = s.charAt(i++);
        switch (e) {
          case 'n' -> b.append('\n');
          case 't' -> b.append('\t');
          case 'r' -> b.append('\r');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> {
            b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> b.append(e);
        }
      }
    }
  }
}
