package dev.ordo.spring.boot.jobs;

import dev.ordo.patterns.queue.ClaimedJob;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds {@link JobHandler} methods (meta-annotations too, through {@link AnnotatedElementUtils})
 * and {@link JobWorker} beans as each bean is initialized, and hands them to the
 * {@link JobWorkerRegistry}, as Spring Kafka's listener post-processor does. Until every singleton
 * exists it only collects them: the registry, an ordinary bean, is looked up then, so this
 * post-processor pulls no bean into existence early. A bean created later (lazy, prototype) joins
 * the registry at once. Classes seen to have no handler are remembered, so each is searched once.
 */
final class JobHandlerBeanPostProcessor implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware {
    private final Set<Class<?>> withoutHandlers = ConcurrentHashMap.newKeySet();
    /** Guarded by this; null once handed to the registry. */
    private List<JobWorker> pending = new ArrayList<>();
    private ConfigurableBeanFactory beanFactory;
    private JobWorkerRegistry registry;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableBeanFactory) beanFactory;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        List<JobWorker> found = new ArrayList<>();
        if (bean instanceof JobWorker worker) {
            found.add(worker.describedAs("JobWorker bean '" + beanName + "'"));
        }
        Class<?> type = AopUtils.getTargetClass(bean);
        if (!withoutHandlers.contains(type) && AnnotationUtils.isCandidateClass(type, JobHandler.class)) {
            Map<Method, JobHandler> methods = MethodIntrospector.selectMethods(type,
                    (MethodIntrospector.MetadataLookup<JobHandler>) m -> AnnotatedElementUtils.findMergedAnnotation(m, JobHandler.class));
            if (methods.isEmpty()) {
                withoutHandlers.add(type);
            }
            methods.forEach((method, annotation) -> found.add(handlerMethod(bean, beanName, method, annotation)));
        }
        if (!found.isEmpty()) {
            hand(found);
        }
        return bean;
    }

    private void hand(List<JobWorker> found) {
        JobWorkerRegistry ready;
        synchronized (this) {
            if (pending != null) {
                pending.addAll(found);
                return;
            }
            ready = registry;
        }
        found.forEach(ready::add);
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<JobWorker> found;
        synchronized (this) {
            registry = beanFactory.getBean(JobWorkerRegistry.class);
            found = pending;
            pending = null;
        }
        found.forEach(registry::add);
    }

    /** A worker that calls {@code method} on {@code bean} with the payload or the claimed job; refuses other signatures. */
    private JobWorker handlerMethod(Object bean, String beanName, Method method, JobHandler annotation) {
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        String source = "@JobHandler method " + method.getDeclaringClass().getName() + "." + method.getName() + " (bean '" + beanName + "')";
        String queue = beanFactory.resolveEmbeddedValue(annotation.value());
        if (queue == null || queue.isBlank()) {
            throw new IllegalStateException(source + " names no queue: give @JobHandler the name of an entry under ordo.queues");
        }
        boolean wholeJob = takesWholeJob(method, source);
        ReflectionUtils.makeAccessible(invocable);
        return JobWorker.declaredBy(source, queue, job -> {
            try {
                invocable.invoke(bean, wholeJob ? job : job.payload());
            } catch (InvocationTargetException e) {
                Throwable cause = e.getTargetException();
                if (cause instanceof Exception exception) {
                    throw exception;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw e;
            }
        });
    }

    /** True for a {@code ClaimedJob<String>} parameter, false for a {@code String} payload. */
    private static boolean takesWholeJob(Method method, String source) {
        if (method.getParameterCount() == 1) {
            ResolvableType parameter = ResolvableType.forMethodParameter(method, 0);
            Class<?> raw = parameter.resolve(Object.class);
            if (raw == ClaimedJob.class) {
                Class<?> payload = parameter.getGeneric(0).resolve();
                if (payload == null || payload.isAssignableFrom(String.class)) {
                    return true;
                }
            } else if (raw.isAssignableFrom(String.class)) {
                return false;
            }
        }
        throw new IllegalStateException(source + " must take one parameter, the payload (String) or the job (ClaimedJob<String>), not "
                + List.of(method.getGenericParameterTypes()));
    }
}
