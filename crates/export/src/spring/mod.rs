//! Spring Boot in the seeds' style (Spring AMQP): a Maven project with a `@Configuration`
//! of `@Bean` `Queue` / `Exchange` / `Binding` (`QueueBuilder`, `CustomExchange` for the
//! plugin), a `RabbitTemplate` with a `MessagePostProcessor` per publish, `@RabbitListener`s
//! on listener container factories (ack mode, prefetch) and a runner for the timed actions.
//!
//! Not run here: Spring's jars cannot be downloaded where delaylab is tested, so the
//! project is checked by golden files only (crates/export/tests/golden/*/spring), and its
//! header and README say so. It uses the scenario's names as they are and logs what it
//! sees; what that leaves out (unique names, TIME_SCALE, the run contract JSON) is listed
//! by [`left_out`] beside the plan's own lines.
//!
//! Modules: [`beans`] (names as Java identifiers, values), [`config`] (the topology and
//! the listener factories), [`runner`] (the listeners and the timed actions), [`text`]
//! (Spring's own lessons).

pub mod beans;
pub mod config;
pub mod runner;
pub mod text;

use crate::plan::Plan;
use crate::syntax::comment;
use crate::text::{Lesson, Texts};
use crate::File;
use text::SpringLesson;

/// The Spring Boot version the pom names (Spring AMQP 3.1, Java 17).
pub const SPRING_BOOT_VERSION: &str = "3.3.5";
pub const PACKAGE: &str = "delaylab";
const JAVA_DIR: &str = "src/main/java/delaylab";

/// What the Spring project does not do that the runnable exports do.
pub fn left_out() -> Vec<String> {
    vec![
        "spring: not run where delaylab is tested (Spring's jars cannot be downloaded there): checked by golden files only".into(),
        "spring: the run contract JSON (run.sh prints none: the application logs its deliveries), so `delaylab diff` cannot compare it".into(),
        "spring: unique dl-<random>- names and the cleanup at the end (the scenario's names are declared as they are and left on the broker)".into(),
        "spring: TIME_SCALE (every duration is the scenario's)".into(),
    ]
}

pub fn files(plan: &Plan, t: &Texts) -> Vec<File> {
    let head = header(plan, t);
    vec![
        File::new("pom.xml", pom(plan)),
        File::new("src/main/resources/application.yml", application_yml(plan)),
        File::new(
            &format!("{JAVA_DIR}/Application.java"),
            format!("{head}{}", application_java()),
        ),
        File::new(
            &format!("{JAVA_DIR}/RabbitConfig.java"),
            format!("{head}{}", config::java(plan, t)),
        ),
        File::new(
            &format!("{JAVA_DIR}/Listeners.java"),
            format!("{head}{}", runner::listeners(plan, t)),
        ),
        File::new(
            &format!("{JAVA_DIR}/ScenarioRunner.java"),
            format!("{head}{}", runner::runner(plan, t)),
        ),
        File::new("README.md", readme(plan, t)),
        File::script("run.sh", run_sh(plan)),
    ]
}

/// Every line the export leaves out: the plan's, then Spring's own.
fn all_left_out(plan: &Plan) -> Vec<String> {
    let mut l = plan.left_out.clone();
    l.extend(left_out());
    l
}

/// The header paragraphs (each Java file starts with them as `//` comments).
pub fn paragraphs(plan: &Plan, t: &Texts) -> Vec<String> {
    let s = plan.scenario;
    let mut out = vec![format!(
        "{}: exported by delaylab (delaylab export code --lang spring), Spring Boot {SPRING_BOOT_VERSION}.",
        s.name
    )];
    out.push(t.get(Lesson::NotRun).to_string());
    if !s.description.is_empty() {
        out.push(s.description.clone());
    }
    if !s.watch.is_empty() {
        out.push(format!("Watch: {}", s.watch));
    }
    out.push(text::get(t.lang, SpringLesson::Differs).to_string());
    if plan.uses_plugin() {
        out.push(t.get(Lesson::Plugin).to_string());
    }
    if plan.uses_delivery_time() {
        out.push(t.get(Lesson::DeliveryTimeChecked).to_string());
    }
    let mut p = t.get(Lesson::LeftOut).to_string();
    for l in all_left_out(plan) {
        p.push_str("\n- ");
        p.push_str(&l);
    }
    out.push(p);
    out
}

fn header(plan: &Plan, t: &Texts) -> String {
    let mut out = crate::header::comment_block(&paragraphs(plan, t), "//");
    out.push('\n');
    out
}

fn pom(plan: &Plan) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- {name}: exported by delaylab (delaylab export code --lang spring).
     NOT RUN: Spring's jars cannot be downloaded where delaylab is tested; checked by golden files only. -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
    <modelVersion>4.0.0</modelVersion>
    <parent>
        <groupId>org.springframework.boot</groupId>
        <artifactId>spring-boot-starter-parent</artifactId>
        <version>{SPRING_BOOT_VERSION}</version>
        <relativePath/>
    </parent>
    <groupId>delaylab</groupId>
    <artifactId>delaylab-scenario</artifactId>
    <version>0.1.0</version>
    <properties>
        <java.version>17</java.version>
    </properties>
    <dependencies>
        <!-- Spring AMQP: RabbitTemplate, @RabbitListener, QueueBuilder, CustomExchange -->
        <dependency>
            <groupId>org.springframework.boot</groupId>
            <artifactId>spring-boot-starter-amqp</artifactId>
        </dependency>
    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>org.springframework.boot</groupId>
                <artifactId>spring-boot-maven-plugin</artifactId>
            </plugin>
        </plugins>
    </build>
</project>
"#,
        name = xml_comment(&plan.scenario.name)
    )
}

/// Text safe inside an XML comment (no `--`).
fn xml_comment(s: &str) -> String {
    s.replace("--", "- -").replace('\n', " ")
}

fn application_yml(plan: &Plan) -> String {
    format!(
        r#"# {name}: exported by delaylab (delaylab export code --lang spring). NOT RUN here.
# The broker: a test one (the application declares the scenario's names as they are).
# run.sh AMQP_URL sets spring.rabbitmq.addresses from its argument.
spring:
  rabbitmq:
    host: 127.0.0.1
    port: 5672
    username: guest
    password: guest
    virtual-host: /
    # Publisher confirms: each publish waits for the broker's ack (ScenarioRunner.send).
    publisher-confirm-type: simple
    # Returned (unroutable mandatory) messages reach the returns callback.
    publisher-returns: true
  main:
    # No web server: the application runs the scenario and exits.
    web-application-type: none
logging:
  level:
    delaylab: INFO
"#,
        name = plan.scenario.name.replace('\n', " ")
    )
}

fn application_java() -> String {
    format!(
        r#"package {PACKAGE};

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class Application {{
    public static void main(String[] args) {{
        // ScenarioRunner exits when the scenario's time is over.
        SpringApplication.run(Application.class, args);
    }}
}}
"#
    )
}

fn readme(plan: &Plan, t: &Texts) -> String {
    let s = plan.scenario;
    let mut out = format!("# {}\n\n", s.name.replace('\n', " "));
    out.push_str(&format!(
        "Exported by delaylab (`delaylab export code --lang spring`): a Spring Boot {SPRING_BOOT_VERSION} project (Spring AMQP, Java 17).\n\n"
    ));
    out.push_str(&format!("**{}**\n\n", t.get(Lesson::NotRun)));
    if !s.description.is_empty() {
        out.push_str(&format!("{}\n\n", s.description));
    }
    out.push_str("- `RabbitConfig.java`: the exchanges, queues and bindings as `@Bean`s, one listener container factory per consumer, the `RabbitTemplate`s.\n");
    out.push_str("- `Listeners.java`: one `@RabbitListener` per consumer (manual acks on the `Channel` where the scenario acks by hand).\n");
    out.push_str("- `ScenarioRunner.java`: the timed actions (publishes with a `MessagePostProcessor`), then the application exits.\n\n");
    out.push_str("Run (needs Maven and access to Maven Central): `./run.sh amqp://guest:guest@127.0.0.1:5672` (no vhost: the default one).\n\n");
    out.push_str(&format!("{}\n\n", text::get(t.lang, SpringLesson::Differs)));
    if plan.uses_plugin() {
        out.push_str(&format!("{}\n\n", t.get(Lesson::Plugin)));
    }
    out.push_str(&format!("{}\n\n", t.get(Lesson::LeftOut)));
    for l in all_left_out(plan) {
        out.push_str(&format!("- {l}\n"));
    }
    out
}

fn run_sh(plan: &Plan) -> String {
    let mut out = format!(
        "#!/usr/bin/env bash\n# {}: runs the Spring Boot application against a broker.\n#   ./run.sh AMQP_URL\n",
        plan.scenario.name.replace('\n', " ")
    );
    out.push_str(&comment(
        "",
        "#",
        "NOT RUN where delaylab is tested (no Maven Central there). Needs Maven 3.6+ and Java 17; prints the application's log, not the run contract JSON.",
    ));
    out.push_str(
        r#"set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
URL="${1:?usage: run.sh AMQP_URL}"
cd "$HERE"
exec mvn -q spring-boot:run -Dspring-boot.run.arguments="--spring.rabbitmq.addresses=$URL"
"#,
    );
    out
}
