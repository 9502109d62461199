/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The bill of materials offers users the drivers and the pool at the versions the build tests with:
 * its properties must be the parent's, which the tests use. The BOM cannot inherit them (importing
 * it would bring in the parent's build settings), so this test keeps the two in step.
 */
class BomVersionsTest {

  private static final List<String> SHARED =
      List.of(
          "sqlite-jdbc.version",
          "postgresql.version",
          "mariadb-java-client.version",
          "hikaricp.version");

  @Test
  void theBomOffersTheVersionsTheBuildTestsWith() throws Exception {
    Document parent = parse(Path.of("..", "pom.xml"));
    Document bom = parse(Path.of("..", "lease-bom", "pom.xml"));
    for (String name : SHARED) {
      assertThat(property(bom, name)).as(name).isNotEmpty().isEqualTo(property(parent, name));
    }
  }

  private static Document parse(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
  }

  private static String property(Document pom, String name) {
    NodeList properties = pom.getElementsByTagName("properties");
    for (int i = 0; i < properties.getLength(); i++) {
      for (Node child = properties.item(i).getFirstChild();
          child != null;
          child = child.getNextSibling()) {
        if (name.equals(child.getNodeName())) {
          return child.getTextContent().trim();
        }
      }
    }
    return "";
  }
}
