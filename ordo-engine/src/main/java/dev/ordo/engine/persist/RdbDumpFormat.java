package dev.ordo.engine.persist;

import dev.ordo.engine.command.DumpFormat;
import dev.ordo.engine.config.Config;
import dev.ordo.engine.encoding.DumpFooter;
import dev.ordo.engine.error.ErrorReply;
import dev.ordo.engine.error.text.Errors;
import dev.ordo.engine.persist.rdb.DecodeBudgetExceeded;
import dev.ordo.engine.persist.rdb.DumpPayload;
import dev.ordo.engine.persist.rdb.RdbException;
import dev.ordo.engine.value.Value;

/** DUMP / RESTORE payloads through the RDB codec ({@link DumpFooter}), under the live configuration. */
public final class RdbDumpFormat implements DumpFormat {
    private final Config config;

    /**
     * A format reading {@code rdbcompression} from {@code config} at each DUMP.
     *
     * @param config the live configuration
     */
    public RdbDumpFormat(Config config) {
        this.config = config;
    }

    @Override
    public byte[] dump(Value value) {
        return DumpPayload.of(value, config.getBoolean("rdbcompression"));
    }

    @Override
    public Value restore(byte[] payload, long decodeBudget) {
        int body = DumpFooter.bodyLength(payload);
        if (body < 0) {
            throw new ErrorReply(Errors.DUMP_PAYLOAD);
        }
        try {
            return DumpPayload.read(payload, body, config, decodeBudget);
        } catch (RdbException e) {
            throw new ErrorReply(Errors.BAD_DATA_FORMAT);
        } catch (DecodeBudgetExceeded e) {
            throw new ErrorReply(Errors.OOM);
        }
    }
}
