package dev.saccade.pcp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated capability manifest of one application (seed, "register.capability"): schema
 * version, the capabilities with name, tier, trust level and typed parameters, and the
 * signature. {@link #parse} refuses anything else with -32016 naming the offending member;
 * the signature is checked separately ({@link TrustedKeys#verify}).
 */
public final class CapabilityManifest {
    /** Major schema version we understand; {@code "1"}, {@code "1.0"}, {@code "1.2"} all qualify. */
    public static final String SCHEMA_MAJOR = "1";
    public static final int MAX_CAPABILITIES = 256;
    public static final int MAX_PARAMETERS = 64;
    /** Integration tiers we accept; the seed leaves the range open, four levels are plenty. */
    public static final int MAX_TIER = 3;
    public static final Set<String> PARAMETER_TYPES = Set.of("string", "integer", "number", "boolean", "object", "array");
    public static final Set<String> TRUST_LEVELS = Set.of("auto", "confirm", "deny");

    private static final Pattern APP_ID = Pattern.compile("[A-Za-z][A-Za-z0-9_-]{0,62}(\\.[A-Za-z0-9_-]{1,63}){1,15}");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final Pattern VERSION = Pattern.compile("1(\\.[0-9]{1,4}){0,2}");

    private final String appId;
    private final String version;
    private final List<Capability> capabilities;

    private CapabilityManifest(final String appId, final String version, final List<Capability> capabilities) {
        this.appId = appId;
        this.version = version;
        this.capabilities = capabilities;
    }

    public String appId() {
        return appId;
    }

    public String version() {
        return version;
    }

    public List<Capability> capabilities() {
        return capabilities;
    }

    /** Whether {@code appId} is a reverse-DNS application id we accept. */
    public static boolean isAppId(final Object appId) {
        return appId instanceof String && APP_ID.matcher((String) appId).matches();
    }

    /** Validates {@code manifest} registered for {@code appId}; -32016 for the first fault found. */
    public static CapabilityManifest parse(final Object appId, final Object manifest) throws PcpError {
        if (!isAppId(appId)) {
            throw invalid("app_id", "must be a reverse-DNS identifier such as org.example.mail");
        }
        if (!(manifest instanceof Map)) {
            throw invalid("manifest", "must be an object");
        }
        final Map<?, ?> m = (Map<?, ?>) manifest;
        final Object version = m.get("version");
        if (!(version instanceof String) || !VERSION.matcher((String) version).matches()) {
            throw invalid("manifest.version", "must be a string of schema version 1 (\"1.0\")");
        }
        if (!(m.get("signature") instanceof String)) {
            throw invalid("manifest.signature", "must be a string");
        }
        final Object list = m.get("capabilities");
        if (!(list instanceof List) || ((List<?>) list).isEmpty() || ((List<?>) list).size() > MAX_CAPABILITIES) {
            throw invalid("manifest.capabilities", "must be an array of 1.." + MAX_CAPABILITIES + " capability declarations");
        }
        final List<Capability> capabilities = new ArrayList<>();
        final Set<String> names = new HashSet<>();
        int index = 0;
        for (final Object item : (List<?>) list) {
            final String at = "manifest.capabilities[" + index++ + "]";
            final Capability capability = capability(at, (String) appId, item);
            if (!names.add(capability.name)) {
                throw invalid(at + ".name", "duplicate capability name " + capability.name);
            }
            capabilities.add(capability);
        }
        return new CapabilityManifest((String) appId, (String) version, Collections.unmodifiableList(capabilities));
    }

    private static Capability capability(final String at, final String appId, final Object item) throws PcpError {
        if (!(item instanceof Map)) {
            throw invalid(at, "must be an object");
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> c = (Map<String, Object>) item;
        final Object name = c.get("name");
        if (!(name instanceof String) || !NAME.matcher((String) name).matches()) {
            throw invalid(at + ".name", "must match [a-z][a-z0-9_]{0,63}");
        }
        final Object tier = c.get("tier");
        if (!(tier instanceof Long) || (Long) tier < 0 || (Long) tier > MAX_TIER) {
            throw invalid(at + ".tier", "must be an integer 0.." + MAX_TIER);
        }
        final Object trust = c.get("trust_level");
        if (!(trust instanceof String) || !TRUST_LEVELS.contains(trust)) {
            throw invalid(at + ".trust_level", "must be auto, confirm or deny");
        }
        final Object confirmationType = c.getOrDefault("confirmation_type", name);
        final Object description = c.getOrDefault("description", name + " in " + appId);
        if (!(confirmationType instanceof String) || !(description instanceof String)) {
            throw invalid(at, "confirmation_type and description must be strings");
        }
        final Object params = c.getOrDefault("parameters", List.of());
        if (!(params instanceof List) || ((List<?>) params).size() > MAX_PARAMETERS) {
            throw invalid(at + ".parameters", "must be an array of at most " + MAX_PARAMETERS + " parameter declarations");
        }
        final Map<String, Parameter> parameters = new LinkedHashMap<>();
        int index = 0;
        for (final Object p : (List<?>) params) {
            final String pat = at + ".parameters[" + index++ + "]";
            if (!(p instanceof Map)) {
                throw invalid(pat, "must be an object");
            }
            @SuppressWarnings("unchecked")
            final Map<String, Object> pm = (Map<String, Object>) p;
            final Object pname = pm.get("name");
            final Object type = pm.get("type");
            final Object required = pm.getOrDefault("required", Boolean.TRUE);
            if (!(pname instanceof String) || ((String) pname).isEmpty() || ((String) pname).length() > 64) {
                throw invalid(pat + ".name", "must be a string of 1..64 characters");
            }
            if (!(type instanceof String) || !PARAMETER_TYPES.contains(type)) {
                throw invalid(pat + ".type", "must be one of " + PARAMETER_TYPES);
            }
            if (!(required instanceof Boolean)) {
                throw invalid(pat + ".required", "must be a boolean");
            }
            if (parameters.put((String) pname, new Parameter((String) pname, (String) type, (Boolean) required)) != null) {
                throw invalid(pat + ".name", "duplicate parameter " + pname);
            }
        }
        return new Capability(appId, (String) name, ((Long) tier).intValue(), (String) trust,
            (String) confirmationType, (String) description, Collections.unmodifiableMap(parameters));
    }

    private static PcpError invalid(final String member, final String reason) {
        return new PcpError(PcpError.MANIFEST_INVALID, "Manifest invalid: " + member + " " + reason,
            JsonTree.object("member", member, "reason", reason));
    }

    /** One declared capability; its id is {@code <app_id>.<name>}. */
    public static final class Capability {
        public final String appId;
        public final String name;
        public final String id;
        public final int tier;
        public final String trustLevel;
        public final String confirmationType;
        /** Shown to the user for confirmation; {@code {param}} is replaced by that parameter's value. */
        public final String description;
        public final Map<String, Parameter> parameters;

        Capability(final String appId, final String name, final int tier, final String trustLevel,
            final String confirmationType, final String description, final Map<String, Parameter> parameters) {
            this.appId = appId;
            this.name = name;
            this.id = appId + "." + name;
            this.tier = tier;
            this.trustLevel = trustLevel;
            this.confirmationType = confirmationType;
            this.description = description;
            this.parameters = parameters;
        }

        /** Checks invocation parameters against the declared types; -32602 for the first mismatch. */
        public void check(final Map<?, ?> values) throws PcpError {
            for (final Map.Entry<?, ?> e : values.entrySet()) {
                final Parameter p = parameters.get(e.getKey());
                if (p == null) {
                    throw badParam((String) e.getKey(), "is not a parameter of " + id);
                }
                if (!p.accepts(e.getValue())) {
                    throw badParam(p.name, "must be of type " + p.type);
                }
            }
            for (final Parameter p : parameters.values()) {
                if (p.required && !values.containsKey(p.name)) {
                    throw badParam(p.name, "is required");
                }
            }
        }

        /** The description with {@code {param}} placeholders filled from {@code values}. */
        public String describe(final Map<?, ?> values) {
            String text = description;
            for (final Map.Entry<?, ?> e : values.entrySet()) {
                if (e.getValue() instanceof String || e.getValue() instanceof Number || e.getValue() instanceof Boolean) {
                    text = text.replace("{" + e.getKey() + "}", String.valueOf(e.getValue()));
                }
            }
            return text;
        }

        /** The declaration as query.capabilities reports it. */
        public Map<String, Object> toJson() {
            final List<Object> params = new ArrayList<>();
            for (final Parameter p : parameters.values()) {
                params.add(JsonTree.object("name", p.name, "type", p.type, "required", p.required));
            }
            return JsonTree.object("id", id, "name", name, "tier", (long) tier, "trust_level", trustLevel,
                "app_id", appId, "parameters", params);
        }

        private static PcpError badParam(final String name, final String reason) {
            return new PcpError(PcpError.INVALID_PARAMS, "Invalid params: params." + name + " " + reason,
                JsonTree.object("parameter", name, "reason", reason));
        }
    }

    /** One typed parameter of a capability. */
    public static final class Parameter {
        public final String name;
        public final String type;
        public final boolean required;

        Parameter(final String name, final String type, final boolean required) {
            this.name = name;
            this.type = type;
            this.required = required;
        }

        boolean accepts(final Object value) {
            switch (type) {
                case "string": return value instanceof String;
                case "integer": return value instanceof Long || value instanceof java.math.BigInteger;
                case "number": return value instanceof Number;
                case "boolean": return value instanceof Boolean;
                case "object": return value instanceof Map;
                case "array": return value instanceof List;
                default: return false;
            }
        }
    }
}
