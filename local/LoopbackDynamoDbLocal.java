// AWS's DynamoDB Local, reachable from this machine only, by the local stack only. Its own launcher listens on every
// network interface and has no option to choose one, and it takes any credentials: from another machine, or as
// another user of this one, anyone could read the password hashes and write sessions. This launcher builds the very
// same server from the same command line, then, before it starts, binds Jetty's connector to 127.0.0.1, refuses
// requests whose Host is not a loopback name (a DNS-rebinding web page in the developer's browser sends its own host
// name), and verifies every request's SigV4 signature (header, date within 15 minutes, body hash) against the stack's
// key pair, which DynamoDB Local itself never checks. The pair comes in the environment variables
// LOOPCAST_LOCAL_ACCESS_KEY_ID and LOOPCAST_LOCAL_SECRET_ACCESS_KEY (local/credentials.ts): every user of the machine
// can read a process's command line, only its owner its environment. Run by local/dynamodb-local.ts with Java's
// source launcher (`java LoopbackDynamoDbLocal.java ...`), which needs only the JRE.
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.servlet.ReadListener;
import javax.servlet.ServletInputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletRequestWrapper;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.HandlerWrapper;

public class LoopbackDynamoDbLocal {
  static final String LOOPBACK = "127.0.0.1";

  /** Requests must name this machine's loopback: 127.0.0.1, localhost or [::1], with any port. */
  static boolean isLoopbackHost(String host) {
    if (host == null) return false;
    String name = host.toLowerCase(Locale.ROOT).replaceFirst(":\\d+$", "");
    return name.equals(LOOPBACK) || name.equals("localhost") || name.equals("[::1]");
  }

  static final String ACCESS_KEY_VARIABLE = "LOOPCAST_LOCAL_ACCESS_KEY_ID";
  static final String SECRET_KEY_VARIABLE = "LOOPCAST_LOCAL_SECRET_ACCESS_KEY";
  static final Pattern AUTHORIZATION =
      Pattern.compile("^AWS4-HMAC-SHA256 Credential=([^,\\s]+),\\s*SignedHeaders=([^,\\s]+),\\s*Signature=([0-9a-f]{64})$");
  static final Pattern AMZ_DATE = Pattern.compile("^(\\d{8})T\\d{6}Z$");
  static final DateTimeFormatter AMZ_DATE_FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  static final long MAX_SKEW_SECONDS = 15 * 60;

  /** Why a request is refused: DynamoDB's own error type (the SDK names its exception after it) and message. */
  static final class Refusal extends Exception {
    final String type;

    Refusal(String type, String message) {
      super(message);
      this.type = type;
    }
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] hmac(byte[] key, String data) throws GeneralSecurityException {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    return mac.doFinal(utf8(data));
  }

  static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) text.append(String.format("%02x", b & 0xff));
    return text.toString();
  }

  static String sha256Hex(byte[] data) throws GeneralSecurityException {
    return hex(MessageDigest.getInstance("SHA-256").digest(data));
  }

  /** SigV4's URI encoding: RFC 3986 unreserved characters stay, everything else is percent-encoded. */
  static String uriEncode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A").replace("%7E", "~");
  }

  static String canonicalQuery(String rawQuery) throws Refusal {
    if (rawQuery == null || rawQuery.isEmpty()) return "";
    List<String[]> pairs = new ArrayList<>();
    try {
      for (String part : rawQuery.split("&")) {
        if (part.isEmpty()) continue;
        int equals = part.indexOf('=');
        String key = equals < 0 ? part : part.substring(0, equals);
        String value = equals < 0 ? "" : part.substring(equals + 1);
        pairs.add(new String[] {uriEncode(URLDecoder.decode(key.replace("+", "%2B"), StandardCharsets.UTF_8)),
            uriEncode(URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8))});
      }
    } catch (IllegalArgumentException malformed) {
      throw new Refusal("InvalidSignatureException", "The query string is not valid percent-encoding.");
    }
    pairs.sort(Comparator.<String[], String>comparing(pair -> pair[0]).thenComparing(pair -> pair[1]));
    StringBuilder query = new StringBuilder();
    for (String[] pair : pairs) query.append(query.length() == 0 ? "" : "&").append(pair[0]).append('=').append(pair[1]);
    return query.toString();
  }

  /** The parts of the request's signature that need no body: Authorization header, key id, date. Returns the
   * header's match (credential, signed headers, signature). */
  static Matcher signatureHeader(HttpServletRequest request, byte[] accessKeyId, Instant now) throws Refusal {
    String authorization = request.getHeader("Authorization");
    if (authorization == null) throw new Refusal("MissingAuthenticationTokenException", "Request is missing Authentication Token");
    Matcher header = AUTHORIZATION.matcher(authorization);
    if (!header.matches()) throw new Refusal("IncompleteSignatureException", "The Authorization header is not a SigV4 one (AWS4-HMAC-SHA256).");
    String[] scope = header.group(1).split("/", -1);
    // Constant time (MessageDigest.isEqual), so the key id cannot be guessed byte by byte.
    if (scope.length != 5 || !MessageDigest.isEqual(utf8(scope[0]), accessKeyId)) {
      throw new Refusal("UnrecognizedClientException", "The security token included in the request is invalid.");
    }
    String amzDate = request.getHeader("X-Amz-Date");
    Matcher date = amzDate == null ? null : AMZ_DATE.matcher(amzDate);
    if (date == null || !date.matches() || !date.group(1).equals(scope[1]) || !scope[4].equals("aws4_request")) {
      throw new Refusal("IncompleteSignatureException", "The request needs an X-Amz-Date header of the credential's day.");
    }
    Instant signedAt;
    try {
      signedAt = Instant.from(AMZ_DATE_FORMAT.parse(amzDate));
    } catch (DateTimeParseException invalid) {
      throw new Refusal("IncompleteSignatureException", "X-Amz-Date is not a date.");
    }
    if (Math.abs(Duration.between(signedAt, now).getSeconds()) > MAX_SKEW_SECONDS) {
      throw new Refusal("InvalidSignatureException", "Signature expired: the request time is more than 15 minutes from the server's.");
    }
    return header;
  }

  /** Recomputes the signature of the request and its body with the stack's secret key and compares. */
  static void verifySignature(HttpServletRequest request, Matcher header, byte[] body, String secretKey) throws Refusal, GeneralSecurityException {
    String[] scope = header.group(1).split("/", -1);
    String signedHeaderList = header.group(2);
    List<String> signedHeaders = Arrays.asList(signedHeaderList.split(";"));
    if (!signedHeaders.contains("host")) throw new Refusal("IncompleteSignatureException", "SignedHeaders must include host.");
    StringBuilder canonicalHeaders = new StringBuilder();
    for (String name : signedHeaders) {
      List<String> values = Collections.list(request.getHeaders(name));
      canonicalHeaders.append(name).append(':').append(String.join(",", values).trim().replaceAll("\\s+", " ")).append('\n');
    }
    String canonicalRequest = String.join("\n", request.getMethod(), request.getRequestURI(), canonicalQuery(request.getQueryString()),
        canonicalHeaders.toString(), signedHeaderList, sha256Hex(body));
    String credentialScope = String.join("/", scope[1], scope[2], scope[3], scope[4]);
    String stringToSign = String.join("\n", "AWS4-HMAC-SHA256", request.getHeader("X-Amz-Date"), credentialScope, sha256Hex(utf8(canonicalRequest)));
    byte[] key = utf8("AWS4" + secretKey);
    for (int i = 1; i < scope.length; i++) key = hmac(key, scope[i]);
    if (!MessageDigest.isEqual(utf8(hex(hmac(key, stringToSign))), utf8(header.group(3)))) {
      throw new Refusal("InvalidSignatureException",
          "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.");
    }
  }

  /** As DynamoDB answers a request it does not authenticate: 400 and its JSON error, which the SDK does not retry. */
  static void refuse(HttpServletResponse response, Refusal refusal) throws IOException {
    response.setStatus(400);
    response.setContentType("application/x-amz-json-1.0");
    String message = refusal.getMessage().replace("\\", "\\\\").replace("\"", "\\\"");
    response.getWriter().write("{\"__type\":\"com.amazonaws.dynamodb.v20120810#" + refusal.type + "\",\"message\":\"" + message + "\"}");
  }

  /** The request with its body read once (to hash it), for DynamoDB Local to read again. */
  static final class ReadRequest extends HttpServletRequestWrapper {
    private final byte[] body;

    ReadRequest(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
          return in.read(buffer, offset, length);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("the body is already read");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }
  }

  static class LoopbackStackOnly extends HandlerWrapper {
    private final byte[] accessKeyId;
    private final String secretKey;

    LoopbackStackOnly(String accessKeyId, String secretKey) {
      this.accessKeyId = utf8(accessKeyId);
      this.secretKey = secretKey;
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException, javax.servlet.ServletException {
      if (!isLoopbackHost(request.getHeader("Host"))) {
        base.setHandled(true);
        response.sendError(403, "DynamoDB Local answers loopback host names only");
        return;
      }
      HttpServletRequest verified;
      try {
        // The header, key id and date first: a stranger's body is not even read.
        Matcher header = signatureHeader(request, accessKeyId, Instant.now());
        byte[] body = request.getInputStream().readAllBytes();
        verifySignature(request, header, body, secretKey);
        verified = new ReadRequest(request, body);
      } catch (Refusal refusal) {
        base.setHandled(true);
        refuse(response, refusal);
        return;
      } catch (GeneralSecurityException missing) {
        throw new IllegalStateException("this JRE has no HmacSHA256 or SHA-256", missing);
      }
      super.handle(target, base, verified, response);
    }
  }

  public static void main(String[] args) throws Exception {
    String accessKeyId = System.getenv(ACCESS_KEY_VARIABLE);
    String secretKey = System.getenv(SECRET_KEY_VARIABLE);
    if (accessKeyId == null || accessKeyId.isEmpty() || secretKey == null || secretKey.length() < 32) {
      throw new IllegalStateException(ACCESS_KEY_VARIABLE + " and " + SECRET_KEY_VARIABLE + " must be set: refusing to run open to every local user");
    }
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local made a server without a connector");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost(LOOPBACK);
    LoopbackStackOnly guard = new LoopbackStackOnly(accessKeyId, secretKey);
    guard.setHandler(jetty.getHandler());
    jetty.setHandler(guard);
    proxy.start();
  }
}
