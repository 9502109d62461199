/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.jdbc.provider;

import dev.rivus.agentkit.lease.LeaseConfigInvalid;
import dev.rivus.agentkit.lease.spi.StoreRequest;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The URL of a {@code jdbc:} store request ({@code --jdbc} or {@code $LEASE_JDBC_URL} in the {@code
 * lease} command): {@code jdbc:postgresql://...} or {@code jdbc:mariadb://...}. Plain string work:
 * no JDBC class is loaded.
 *
 * <p>A user and password written as {@code //user:password@host} are taken out of the URL (neither
 * driver reads that form, and one of them echoes the unparsed rest in its error) and handed to the
 * driver as properties; parameters such as {@code ?user=...&password=...} stay in the URL for the
 * driver, which gives them precedence. {@link #redacted()} is the only form of the URL that is ever
 * shown: the password of the user part and the value of every parameter whose name looks secret
 * ({@code password}, {@code sslpassword}, a {@code token}...) are replaced by {@value #MASK}.
 * Immutable.
 */
final class JdbcUrl {

  /** What a secret is replaced with wherever a URL is shown. */
  static final String MASK = "***";

  /** Parameter names whose values are secrets, in any case: password, sslpassword, pwd, token. */
  private static final Pattern SECRET_NAME =
      Pattern.compile("(?i).*(password|passwd|pwd|secret|token|credential).*");

  private static final Pattern SCHEME =
      Pattern.compile("[A-Za-z][A-Za-z0-9+.-]{0,19}:(?:[A-Za-z][A-Za-z0-9+.-]{0,19}:)?");

  private static final String POSTGRESQL = "jdbc:postgresql:";
  private static final String MARIADB = "jdbc:mariadb:";

  private final String text;
  private final String product;
  private final String forDriver;
  private final @Nullable String user;
  private final @Nullable String password;

  private JdbcUrl(
      String text,
      String product,
      String forDriver,
      @Nullable String user,
      @Nullable String password) {
    this.text = text;
    this.product = product;
    this.forDriver = forDriver;
    this.user = user;
    this.password = password;
  }

  /**
   * Parses a database URL.
   *
   * @param text the URL
   * @param source where it came from, for messages: {@code --jdbc} or {@code LEASE_JDBC_URL}
   * @return the URL
   * @throws LeaseConfigInvalid for another database's URL, or a user part that is not valid
   *     percent-encoding; the message never holds a secret
   */
  static JdbcUrl parse(String text, String source) {
    String product;
    if (text.startsWith(POSTGRESQL)) {
      product = "PostgreSQL";
    } else if (text.startsWith(MARIADB)) {
      product = "MariaDB";
    } else {
      throw new LeaseConfigInvalid(
          StoreRequest.LOCATION,
          source
              + " must be a PostgreSQL or MariaDB URL, jdbc:postgresql://HOST[:PORT]/DATABASE or"
              + " jdbc:mariadb://HOST[:PORT]/DATABASE; it starts with '"
              + scheme(text)
              + "'");
    }
    Parts parts = Parts.of(text);
    if (parts.userInfo == null) {
      return new JdbcUrl(text, product, text, null, null);
    }
    String forDriver = text.substring(0, parts.userInfoStart) + text.substring(parts.hostStart);
    int colon = parts.userInfo.indexOf(':');
    String rawUser = colon < 0 ? parts.userInfo : parts.userInfo.substring(0, colon);
    String rawPassword = colon < 0 ? null : parts.userInfo.substring(colon + 1);
    try {
      String user = rawUser.isEmpty() ? null : percentDecoded(rawUser);
      String password = rawPassword == null ? null : percentDecoded(rawPassword);
      return new JdbcUrl(text, product, forDriver, user, password);
    } catch (IllegalArgumentException e) {
      throw new LeaseConfigInvalid(
          StoreRequest.LOCATION,
          source
              + " has a user or password that is not valid percent-encoding (write % as %25): "
              + redact(text));
    }
  }

  /** The database product the URL names: {@code PostgreSQL} or {@code MariaDB}. */
  String product() {
    return product;
  }

  /** The URL to give the driver: without the user part, which {@link #user()} and co. carry. */
  String forDriver() {
    return forDriver;
  }

  /** The user of the URL's user part, if it has one. */
  @Nullable String user() {
    return user;
  }

  /** The password of the URL's user part, if it has one. */
  @Nullable String password() {
    return password;
  }

  /** The URL with its secrets masked: the only form of it that is shown. */
  String redacted() {
    return redact(text);
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof JdbcUrl && ((JdbcUrl) other).text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The redacted URL, so that a URL in a string concatenation is never shown whole. */
  @Override
  public String toString() {
    return redacted();
  }

  /**
   * Masks the secrets of any text that may be a URL: the password of a {@code //user:password@}
   * part and the values of parameters whose names look secret. Works on malformed URLs too.
   *
   * @param text the URL
   * @return the URL with {@value #MASK} for each secret
   */
  static String redact(String text) {
    Parts parts = Parts.of(text);
    StringBuilder shown = new StringBuilder();
    if (parts.userInfo != null) {
      int colon = parts.userInfo.indexOf(':');
      shown.append(text, 0, parts.userInfoStart);
      shown.append(colon < 0 ? parts.userInfo : parts.userInfo.substring(0, colon) + ":" + MASK);
      shown.append(text, parts.hostStart - 1, parts.queryStart);
    } else {
      shown.append(text, 0, parts.queryStart);
    }
    if (parts.queryStart < text.length()) {
      shown.append(text.charAt(parts.queryStart));
      String[] parameters = text.substring(parts.queryStart + 1).split("&", -1);
      for (int i = 0; i < parameters.length; i++) {
        if (i > 0) {
          shown.append('&');
        }
        String parameter = parameters[i];
        int equals = parameter.indexOf('=');
        if (equals >= 0 && SECRET_NAME.matcher(parameter.substring(0, equals)).matches()) {
          shown.append(parameter, 0, equals + 1).append(MASK);
        } else {
          shown.append(parameter);
        }
      }
    }
    return shown.toString();
  }

  /**
   * The secrets written in any text that may be a URL, as written and as decoded: what {@link
   * #redact} masks, for scrubbing messages of others that may quote the URL or its parts.
   *
   * @param text the URL
   * @return the secrets, none empty
   */
  static List<String> secretsIn(String text) {
    Parts parts = Parts.of(text);
    List<String> secrets = new ArrayList<>();
    if (parts.userInfo != null) {
      int colon = parts.userInfo.indexOf(':');
      if (colon >= 0) {
        addWithDecoded(secrets, parts.userInfo.substring(colon + 1));
      }
    }
    if (parts.queryStart < text.length()) {
      for (String parameter : text.substring(parts.queryStart + 1).split("&")) {
        int equals = parameter.indexOf('=');
        if (equals >= 0 && SECRET_NAME.matcher(parameter.substring(0, equals)).matches()) {
          addWithDecoded(secrets, parameter.substring(equals + 1));
        }
      }
    }
    return secrets;
  }

  private static void addWithDecoded(List<String> secrets, String raw) {
    if (raw.isEmpty()) {
      return;
    }
    List<String> forms = new ArrayList<>(List.of(raw));
    try {
      forms.add(percentDecoded(raw));
      forms.add(URLDecoder.decode(raw, StandardCharsets.UTF_8)); // '+' as a space, as pgjdbc
    } catch (IllegalArgumentException notEncoded) {
      // written as it is only
    }
    for (String form : forms) {
      if (!form.isEmpty() && !secrets.contains(form)) {
        secrets.add(form);
      }
    }
  }

  /**
   * The scheme of a URL, at most two words ({@code jdbc:oracle:}, {@code postgres:}): it holds no
   * secret, unlike what may follow it.
   */
  private static String scheme(String text) {
    Matcher scheme = SCHEME.matcher(text);
    return scheme.lookingAt() ? scheme.group() : "";
  }

  /** RFC 3986 percent-decoding of UTF-8; a '+' stays a '+'. */
  private static String percentDecoded(String raw) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int plain = 0; // the start of the run of characters since the last escape
    for (int i = 0; i < raw.length(); i++) {
      if (raw.charAt(i) != '%') {
        continue;
      }
      byte[] run = raw.substring(plain, i).getBytes(StandardCharsets.UTF_8);
      bytes.write(run, 0, run.length);
      int high = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
      int low = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
      if (high < 0 || low < 0) {
        throw new IllegalArgumentException("a % not followed by two hex digits");
      }
      bytes.write(high * 16 + low);
      i += 2;
      plain = i + 1;
    }
    byte[] run = raw.substring(plain).getBytes(StandardCharsets.UTF_8);
    bytes.write(run, 0, run.length);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * Where the parts of a URL are: the user part is what lies between the first {@code //} and the
   * last {@code @} before the parameters, so that a password with a raw {@code /} or {@code @} is
   * still found whole.
   */
  private static final class Parts {
    final int queryStart;
    final int userInfoStart;
    final int hostStart;
    final @Nullable String userInfo;

    private Parts(int queryStart, int userInfoStart, int hostStart, @Nullable String userInfo) {
      this.queryStart = queryStart;
      this.userInfoStart = userInfoStart;
      this.hostStart = hostStart;
      this.userInfo = userInfo;
    }

    static Parts of(String text) {
      int question = text.indexOf('?');
      int queryStart = question < 0 ? text.length() : question;
      int slashes = text.indexOf("//");
      int at = queryStart == 0 ? -1 : text.lastIndexOf('@', queryStart - 1);
      if (slashes < 0 || slashes >= queryStart || at < slashes + 2) {
        return new Parts(queryStart, -1, -1, null);
      }
      return new Parts(queryStart, slashes + 2, at + 1, text.substring(slashes + 2, at));
    }
  }
}
