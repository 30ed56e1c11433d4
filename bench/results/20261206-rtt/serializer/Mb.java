import com.fasterxml.jackson.core.*;
import com.fasterxml.jackson.databind.*;
import com.fasterxml.jackson.databind.node.*;
import java.util.*;
public class Mb {
    static final ObjectMapper M = new ObjectMapper();
    static byte[] old(ObjectNode n) throws Exception { byte[] b = M.writeValueAsBytes(n); byte[] l = Arrays.copyOf(b, b.length+1); l[b.length]='\n'; return l; }
    static byte[] neu(ObjectNode n) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(256);
        try (JsonGenerator g = M.getFactory().createGenerator(bytes)) { write(g, n); }
        bytes.write('\n'); return bytes.toByteArray();
    }
    static void write(JsonGenerator g, JsonNode node) throws java.io.IOException {
        if (node instanceof ObjectNode) { g.writeStartObject(); for (Map.Entry<String, JsonNode> e : ((ObjectNode) node).properties()) { g.writeFieldName(e.getKey()); write(g, e.getValue()); } g.writeEndObject(); }
        else if (node instanceof ArrayNode) { g.writeStartArray(); for (JsonNode e : node) write(g, e); g.writeEndArray(); }
        else if (node instanceof TextNode) { g.writeString(node.textValue()); }
        else if (node instanceof BooleanNode) g.writeBoolean(node.booleanValue());
        else if (node instanceof NullNode) g.writeNull();
        else if (node instanceof IntNode) g.writeNumber(node.intValue());
        else if (node instanceof LongNode) g.writeNumber(node.longValue());
        else if (node instanceof DoubleNode) g.writeNumber(node.doubleValue());
        else M.writeTree(g, node);
    }
    public static void main(String[] a) throws Exception {
        ObjectNode big = (ObjectNode) M.readTree(new java.io.File(a[0]));
        ObjectNode small = (ObjectNode) M.readTree("{\"id\":\"r\",\"result\":{\"type\":\"pong\",\"server_version\":\"0.1\",\"protocol\":\"1\",\"revision\":5}}");
        if (!Arrays.equals(old(big), neu(big))) throw new AssertionError("differ");
        for (ObjectNode n : List.of(big, small)) {
            int reps = n == big ? 300 : 300000;
            for (int round = 0; round < 4; round++) {
                long t0 = System.nanoTime(); for (int i = 0; i < reps; i++) old(n); long t1 = System.nanoTime();
                for (int i = 0; i < reps; i++) neu(n); long t2 = System.nanoTime();
                System.out.printf("%s round %d: databind %.2f us, walk %.2f us%n", n == big ? "snapshot 68KB" : "ping reply", round, (t1-t0)/1e3/reps, (t2-t1)/1e3/reps);
            }
        }
    }
}
