package dev.ordo.engine.script.lib;

/**
 * The settings of one {@code cjson} instance (lua-cjson's {@code json_config_t}), changed by its configuration
 * functions and read by {@link JsonEncoder} and {@link JsonDecoder}. Defaults are lua-cjson 2.1.0's as Redis builds it.
 */
final class JsonConfig {

    /** {@code encode_invalid_numbers} setting: raise an error for NaN and infinities. */
    static final int INVALID_NUMBERS_OFF = 0;
    /** {@code encode_invalid_numbers} setting: write {@code nan}, {@code inf} and {@code -inf}. */
    static final int INVALID_NUMBERS_ON = 1;
    /** {@code encode_invalid_numbers} setting: write {@code null}. */
    static final int INVALID_NUMBERS_NULL = 2;

    boolean encodeSparseConvert = false;
    int encodeSparseRatio = 2;
    int encodeSparseSafe = 10;
    int encodeMaxDepth = 1000;
    int decodeMaxDepth = 1000;
    int encodeNumberPrecision = 14;
    boolean encodeKeepBuffer = true;
    int encodeInvalidNumbers = INVALID_NUMBERS_OFF;
    boolean decodeInvalidNumbers = true;
}
