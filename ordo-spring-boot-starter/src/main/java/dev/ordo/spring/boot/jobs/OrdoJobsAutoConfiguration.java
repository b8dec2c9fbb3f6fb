package dev.ordo.spring.boot.jobs;

import dev.ordo.spring.boot.JobQueues;
import dev.ordo.spring.boot.OrdoPatternsAutoConfiguration;
import dev.ordo.spring.boot.OrdoProperties;
import dev.ordo.spring.boot.metrics.JobObserver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

import java.util.concurrent.ThreadFactory;

/**
 * Queue workers: runs {@link JobHandler} methods and {@link JobWorker} beans on the delayed queues
 * declared under {@code ordo.queues}, on virtual threads when {@code spring.threads.virtual.enabled}
 * is set (Java 21 and later). Virtual threads do not keep the JVM alive: an application without a
 * web server then needs {@code spring.main.keep-alive=true}, as with Boot's own schedulers.
 */
@AutoConfiguration(after = OrdoPatternsAutoConfiguration.class)
@ConditionalOnBean(JobQueues.class)
public final class OrdoJobsAutoConfiguration {
    /** Creates the configuration; Spring calls this. */
    public OrdoJobsAutoConfiguration() {
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static JobHandlerBeanPostProcessor ordoJobHandlerBeanPostProcessor() {
        return new JobHandlerBeanPostProcessor();
    }

    @Bean
    JobWorkerRegistry ordoJobWorkerRegistry(JobQueues queues, OrdoProperties properties, Environment environment,
                                            ObjectProvider<JobObserver> observers) {
        ThreadFactory threads = Threading.VIRTUAL.isActive(environment)
                ? new VirtualThreadTaskExecutor("ordo-job-").getVirtualThreadFactory()
                : Thread::new;
        return new JobWorkerRegistry(queues, properties.queues(), threads, observers.getIfAvailable(() -> JobObserver.NONE));
    }
}
