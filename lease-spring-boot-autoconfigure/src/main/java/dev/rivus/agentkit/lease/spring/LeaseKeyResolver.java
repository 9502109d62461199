/*
 * Copyright 2026 The Leases for Java authors
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.rivus.agentkit.lease.spring;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.StringValueResolver;

/**
 * Turns a {@link Leased#key()} template into the key of one call: placeholders once per method,
 * then the {@code #{...}} expressions over the call's arguments. Thread-safe.
 */
final class LeaseKeyResolver {

  private static final TemplateParserContext TEMPLATE = new TemplateParserContext();

  private final @Nullable StringValueResolver placeholders;
  private final SpelExpressionParser parser = new SpelExpressionParser();
  private final ParameterNameDiscoverer names = new DefaultParameterNameDiscoverer();
  private final Map<Method, Expression> templates = new ConcurrentHashMap<>();

  LeaseKeyResolver(@Nullable StringValueResolver placeholders) {
    this.placeholders = placeholders;
  }

  String key(
      String template, Method method, @Nullable Object target, @Nullable Object[] arguments) {
    Expression expression = templates.computeIfAbsent(method, m -> parse(template));
    Object key =
        expression.getValue(new MethodBasedEvaluationContext(target, method, arguments, names));
    if (key == null || key.toString().isEmpty()) {
      throw new IllegalArgumentException(
          "the @Leased key '" + template + "' of " + method + " evaluated to an empty key");
    }
    return key.toString();
  }

  private Expression parse(String template) {
    String resolved = placeholders == null ? template : placeholders.resolveStringValue(template);
    return parser.parseExpression(resolved == null ? template : resolved, TEMPLATE);
  }
}
