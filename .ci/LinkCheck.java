/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks that every relative link of the given Markdown files (and of the Markdown files under the
 * given directories) resolves: the file or directory it names exists, and an anchor it names ({@code
 * page.md#section}, {@code #section}) is a heading of that page, spelled as GitHub makes anchors.
 * Links to web addresses are not followed (CI has no network). Prints each broken link and exits 1
 * if there is one.
 *
 * <p>Run with the source launcher: {@code java .ci/LinkCheck.java README.md docs}.
 */
public final class LinkCheck {

  /** {@code [text](target)} and {@code ![alt](target)}, with an optional title after the target. */
  private static final Pattern INLINE = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

  /** {@code [label]: target}, a reference definition. */
  private static final Pattern REFERENCE = Pattern.compile("(?m)^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");

  /** {@code src="..."} and {@code href="..."} of inline HTML. */
  private static final Pattern HTML = Pattern.compile("(?:src|href)=\"([^\"]+)\"");

  private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");

  private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*(```|~~~).*?^\\s*\\1\\s*$");

  private final Map<Path, Set<String>> anchors = new HashMap<>();

  private LinkCheck() {}

  public static void main(String[] args) throws IOException {
    List<Path> pages = new ArrayList<>();
    for (String arg : args) {
      Path path = Path.of(arg);
      if (Files.isDirectory(path)) {
        try (Stream<Path> found = Files.walk(path)) {
          found.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
      } else {
        pages.add(path);
      }
    }
    LinkCheck check = new LinkCheck();
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path page : pages) {
      for (String target : check.links(page)) {
        links++;
        String problem = check.problem(page, target);
        if (problem != null) {
          broken.add(page + ": " + target + " (" + problem + ")");
        }
      }
    }
    broken.forEach(System.err::println);
    System.out.println(
        "link check: " + links + " links in " + pages.size() + " pages, " + broken.size() + " broken");
    System.exit(broken.isEmpty() ? 0 : 1);
  }

  private List<String> links(Path page) throws IOException {
    String text = withoutCode(Files.readString(page, StandardCharsets.UTF_8));
    List<String> targets = new ArrayList<>();
    for (Pattern pattern : List.of(INLINE, REFERENCE, HTML)) {
      Matcher matcher = pattern.matcher(text);
      while (matcher.find()) {
        targets.add(matcher.group(1));
      }
    }
    return targets;
  }

  /** Text in fenced code blocks and code spans is not a link. */
  private static String withoutCode(String text) {
    return FENCE.matcher(text).replaceAll("").replaceAll("`[^`\n]*`", "");
  }

  /** What is wrong with the link, or null if it resolves or is not relative. */
  private String problem(Path page, String target) throws IOException {
    if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
      return null; // https:, mailto: and the like
    }
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path dir = page.toAbsolutePath().getParent();
    Path resolved = file.isEmpty() ? page.toAbsolutePath() : dir.resolve(decode(file)).normalize();
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (anchor != null && !anchor.isEmpty() && resolved.toString().endsWith(".md")) {
      if (!anchorsOf(resolved).contains(decode(anchor).toLowerCase(Locale.ROOT))) {
        return "no heading with this anchor";
      }
    }
    return null;
  }

  private Set<String> anchorsOf(Path page) throws IOException {
    Set<String> known = anchors.get(page);
    if (known == null) {
      known = new HashSet<>();
      Map<String, Integer> seen = new HashMap<>();
      Matcher matcher = HEADING.matcher(withoutFences(Files.readString(page, StandardCharsets.UTF_8)));
      while (matcher.find()) {
        String slug = slug(matcher.group(1));
        int n = seen.merge(slug, 1, Integer::sum);
        known.add(n == 1 ? slug : slug + "-" + (n - 1)); // GitHub numbers repeated headings
      }
      Matcher named = Pattern.compile("<a (?:name|id)=\"([^\"]+)\"").matcher(Files.readString(page));
      while (named.find()) {
        known.add(named.group(1).toLowerCase(Locale.ROOT));
      }
      anchors.put(page, known);
    }
    return known;
  }

  private static String withoutFences(String text) {
    return FENCE.matcher(text).replaceAll("");
  }

  /** GitHub's anchor of a heading: lower case, markup and punctuation dropped, spaces as dashes. */
  static String slug(String heading) {
    String text =
        heading
            .replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link: its text
            .replaceAll("<[^>]+>", "")
            .toLowerCase(Locale.ROOT);
    StringBuilder slug = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
              } else if (c == ' ') {
                slug.append('-');
              }
            });
    return slug.toString();
  }

  private static String decode(String part) {
    return java.net.URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
  }
}
