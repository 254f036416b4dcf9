// AWS's DynamoDB Local, reachable from this machine only. Its own launcher listens on every network interface and
// has no option to choose one, and it takes any credentials: from another machine anyone could read the password
// hashes and write sessions. This launcher builds the very same server from the same command line, then, before it
// starts, binds Jetty's connector to 127.0.0.1 and refuses requests whose Host is not a loopback name (a
// DNS-rebinding web page in the developer's browser sends its own host name). Run by local/dynamodb-local.ts with
// Java's source launcher (`java LoopbackDynamoDbLocal.java ...`), which needs only the JRE.
import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Locale;
import javax.servlet.http.HttpServletRequest;
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

  static class LoopbackHostOnly extends HandlerWrapper {
    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException, javax.servlet.ServletException {
      if (!isLoopbackHost(request.getHeader("Host"))) {
        base.setHandled(true);
        response.sendError(403, "DynamoDB Local answers loopback host names only");
        return;
      }
      super.handle(target, base, request, response);
    }
  }

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local made a server without a connector");
    for (Connector connector : connectors) ((ServerConnector) connector).setHost(LOOPBACK);
    LoopbackHostOnly guard = new LoopbackHostOnly();
    guard.setHandler(jetty.getHandler());
    jetty.setHandler(guard);
    proxy.start();
  }
}
