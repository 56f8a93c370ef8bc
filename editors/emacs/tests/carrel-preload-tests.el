;;; carrel-preload-tests.el --- ERT tests of opening at once  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el, whose helpers these use.
;; `carrel-preload' starts the server and fetches the first view in the
;; background, only where a Carrel project is; `carrel' then shows what
;; is held without asking the server again.

;;; Code:

(require 'carrel-tests)

(defun carrel-test--make-project (lib name)
  "Make the Poetry project NAME in the library LIB on disk, as a sync would."
  (let ((project (expand-file-name name lib)))
    (make-directory (expand-file-name ".carrel" project) t)
    (with-temp-file (expand-file-name ".carrel/project.json" project)
      (insert "{\"type\":\"poetry\",\"version\":1}"))
    (dolist (folder '("Draft" "Ready" "Set Aside" "Published" "Research" "Trash"))
      (make-directory (expand-file-name folder project) t))
    (write-region "" nil (expand-file-name "Draft/Spring.md" project))))

(defmacro carrel-test--with-preload-library (&rest body)
  "Run BODY with `carrel-test--lib' a new library called Writing.
It holds the project Poems, made on disk.  BODY runs in that folder,
with no library configured; every tree and server it made is gone
afterwards."
  (declare (indent 0) (debug t))
  `(let* ((top (make-temp-file "carrel-preload" t))
          (carrel-test--lib (expand-file-name "Writing" top))
          (carrel-library-directory nil)
          (before carrel--connections))
     (make-directory carrel-test--lib)
     (carrel-test--make-project carrel-test--lib "Poems")
     ;; A test before may leave a killed tree buffer current.
     (set-buffer (window-buffer (selected-window)))
     (unwind-protect
         (let ((default-directory (file-name-as-directory carrel-test--lib)))
           ,@body)
       (dolist (conn carrel--connections)
         (unless (memq conn before)
           (let ((tree (carrel--tree-buffer conn)))
             (if tree (kill-buffer tree) (carrel-shutdown conn)))))
       (delete-directory top t))))

(defun carrel-test--preloaded ()
  "Return the connection `carrel-preload' made for the test library, or nil."
  (carrel--connection-for carrel-test--lib))

(defun carrel-test--preloaded-tree ()
  "Return the preloaded tree buffer of the test library, or nil."
  (let ((conn (carrel-test--preloaded)))
    (and conn (carrel--tree-buffer conn))))

(defun carrel-test--wait-held ()
  "Wait until the preloaded tree holds its first view and has drawn it."
  (carrel-test--wait (lambda ()
                       (let ((tree (carrel-test--preloaded-tree)))
                         (and tree (eq (buffer-local-value 'carrel--first-view tree) 'held))))
                     "the first view preloaded")
  (with-current-buffer (carrel-test--preloaded-tree)
    (carrel-test--settled)))

(defun carrel-test--record-change (_conn method &rest _)
  "Mark in `carrel-test--sent' that the notification METHOD came, if a change."
  (when (eq method 'carrel/didChange)
    (setq carrel-test--sent (append carrel-test--sent (list (list 'change nil))))))

(defmacro carrel-test--recording-changes (&rest body)
  "Run BODY; return the requests it sent and the changes that came, in order.
A change shows as (change nil) among the requests."
  (declare (indent 0) (debug t))
  `(progn
     (advice-add 'carrel--handle-notification :before #'carrel-test--record-change)
     (unwind-protect (carrel-test--recording ,@body)
       (advice-remove 'carrel--handle-notification #'carrel-test--record-change))))

(defun carrel-test--first-view-then-changes (sent)
  "Check that SENT asked for the first view of the test library first.
Any `carrel/tree' after it must follow a change: the server's first
scan says that the library changed, and the binder follows it."
  (let* ((first-view (list '(:depth 1)
                           (list :uri (carrel--path-to-uri (carrel-test--path "Poems")) :depth 2)))
         (trees (seq-filter (lambda (m) (memq (car m) '(carrel/tree :carrel/tree change))) sent))
         (asked (carrel-test--tree-requests trees)))
    (should (equal (seq-take asked 2) first-view))
    ;; Before the first change, the first view and nothing else.
    (should (equal (carrel-test--tree-requests (seq-take-while (lambda (m) (not (eq (car m) 'change)))
                                                               trees))
                   (seq-take first-view (length (carrel-test--tree-requests
                                                 (seq-take-while (lambda (m) (not (eq (car m) 'change)))
                                                                 trees))))))
    (dolist (params (nthcdr 2 asked))
      (should (<= (plist-get params :depth) 2))
      (should (plist-get params :uri)))))

(defun carrel-test--shown-p (buffer)
  "Return non-nil if a window of any frame shows BUFFER."
  (get-buffer-window-list buffer nil t))

(ert-deftest carrel-test-preload-fetches-first-view-hidden ()
  "Preload starts the server and fetches the first view, in a buffer no
window shows, without waiting; opening then asks for no tree."
  (carrel-test--with-preload-library
    (let* ((shown (current-buffer))
           (poems (carrel--path-to-uri (carrel-test--path "Poems")))
           (sent (carrel-test--recording-changes
                   (carrel-preload)
                   ;; Back at once: nothing was read from the server yet.
                   (should (carrel-test--preloaded))
                   (should-not (let ((tree (carrel-test--preloaded-tree)))
                                 (and tree (buffer-local-value 'carrel--first-view tree))))
                   (carrel-test--wait-held))))
      (carrel-test--first-view-then-changes sent)
      (should (equal (seq-take (carrel-test--tree-requests sent) 2)
                     (list '(:depth 1) (list :uri poems :depth 2))))
      (let ((tree (carrel-test--preloaded-tree)))
        (should-not (carrel-test--shown-p tree))
        (should (eq (window-buffer (selected-window)) shown))
        (should (eq (current-buffer) shown))
        ;; Drawn already, as opening draws it.
        (with-current-buffer tree
          (should (equal (seq-take (carrel-test--rows) 4) '("Writing" "Poems" "YOUR POETRY" "All")))
          (should (member "Draft" (carrel-test--rows)))
          (should-not (member "Spring.md" (carrel-test--rows))))
        (let ((sent (carrel-test--recording (carrel carrel-test--lib))))
          (should (null (carrel-test--tree-requests sent)))
          (should (null sent)))
        (should (eq (current-buffer) tree))
        (should (eq (window-buffer (selected-window)) tree))
        (should (= (point) (point-min)))
        (should (equal (carrel-test--header) "Writing"))
        (should (equal (seq-take (carrel-test--rows) 4) '("Writing" "Poems" "YOUR POETRY" "All")))))))

(ert-deftest carrel-test-preload-open-meanwhile-waits ()
  "Opening while the first view is still coming waits for it, asking nothing twice."
  (carrel-test--with-preload-library
    (let ((sent (carrel-test--recording-changes
                  (carrel-preload)
                  (carrel carrel-test--lib))))
      (should (equal (length carrel--connections) 1))
      (carrel-test--first-view-then-changes sent)
      (should (eq (current-buffer) (carrel-test--preloaded-tree)))
      (carrel-test--settled)
      (should (member "Draft" (carrel-test--rows))))))

(ert-deftest carrel-test-preload-needs-a-project ()
  "Preload starts nothing, silently, where no folder holds a Carrel project:
an empty folder, the home folder, a project.json that is a link, a
folder or a pipe, a project behind a link or in a hidden folder."
  (carrel-test--with-preload-library
    (let* ((top (file-name-directory carrel-test--lib))
           (fake (lambda (name)
                   (let ((dir (expand-file-name (concat name "/Box/.carrel") top)))
                     (make-directory dir t)
                     (expand-file-name "project.json" dir))))
           (real (expand-file-name "Writing/Poems/.carrel/project.json" top))
           (log (carrel-test--messages)))
      (make-directory (expand-file-name "Empty" top))
      (make-directory (expand-file-name "Files" top))
      (write-region "" nil (expand-file-name "Files/note.md" top))
      (make-symbolic-link real (funcall fake "Link"))
      (make-directory (funcall fake "Folder"))
      (should (zerop (call-process "mkfifo" nil nil nil (funcall fake "Pipe"))))
      ;; A project behind a link, or hidden, is not one to the server.
      (make-directory (expand-file-name "Linked" top))
      (make-symbolic-link (expand-file-name "Writing/Poems" top) (expand-file-name "Linked/Poems" top))
      (make-directory (expand-file-name "Dotted/.Poems" top) t)
      (make-symbolic-link (expand-file-name "Writing/Poems/.carrel" top)
                          (expand-file-name "Dotted/.Poems/.carrel" top))
      (make-directory (expand-file-name "Hidden/.Odes/.carrel" top) t)
      (write-region "{}" nil (expand-file-name "Hidden/.Odes/.carrel/project.json" top))
      (dolist (folder (list "Empty" "Files" "Link" "Folder" "Pipe" "Link/Box" "Pipe/Box"
                            "Linked" "Dotted/.Poems" "Hidden"))
        (let ((default-directory (file-name-as-directory (expand-file-name folder top))))
          (should (equal (carrel-test--recording (carrel-preload)) nil))
          (should (null carrel--connections))))
      (let ((default-directory (file-name-as-directory (expand-file-name "~"))))
        (carrel-preload)
        (should (null carrel--connections)))
      (let ((carrel-library-directory (expand-file-name "Link" top)))
        (carrel-preload)
        (should (null carrel--connections)))
      (should (equal (carrel-test--messages) log))
      ;; The same folders with a real project in them do start one.
      (let ((default-directory (file-name-as-directory (expand-file-name "Empty" top))))
        (carrel-test--make-project default-directory "Odes")
        (carrel-preload)
        (should (carrel--connection-for default-directory))))))

(ert-deftest carrel-test-preload-follows-changes-while-hidden ()
  "A file made by another program while the binder is preloaded and hidden
is in the binder when it opens, and opening fetches nothing."
  (carrel-test--with-preload-library
    (carrel-preload)
    (carrel-test--wait-held)
    (let ((tree (carrel-test--preloaded-tree))
          (sent (carrel-test--recording
                  (write-region "x" nil (carrel-test--path "ideas.md"))
                  (carrel-test--wait (lambda ()
                                       (with-current-buffer (carrel-test--preloaded-tree)
                                         (carrel-test--row "ideas.md")))
                                     "the new file in the hidden binder")
                  (with-current-buffer (carrel-test--preloaded-tree)
                    (carrel-test--settled)))))
      ;; Patched as if shown: the library's listing takes the placed row.
      (should (null (carrel-test--tree-requests sent)))
      (should-not (carrel-test--shown-p tree))
      (let ((sent (carrel-test--recording (carrel carrel-test--lib))))
        (should (null (carrel-test--tree-requests sent))))
      (should (eq (current-buffer) tree))
      (should (equal (car (last (carrel-test--rows))) "ideas.md"))
      (should (equal (plist-get (carrel--node (carrel--path-to-uri (carrel-test--path "ideas.md"))) :kind)
                     "file")))))

(ert-deftest carrel-test-preload-twice-or-after-open-does-nothing ()
  "A second preload, at once or later, and a preload after opening, do nothing."
  (carrel-test--with-preload-library
    (carrel-preload)
    (let ((conn (carrel-test--preloaded)))
      (should (equal (carrel-test--recording (carrel-preload)) nil))
      (carrel-test--wait-held)
      (let ((tree (carrel-test--preloaded-tree)))
        (should (equal (carrel-test--recording (carrel-preload)) nil))
        (carrel carrel-test--lib)
        (should (equal (carrel-test--recording (carrel-preload)) nil))
        (should (equal carrel--connections (list conn)))
        (should (eq (carrel-test--preloaded-tree) tree)))))
  ;; Opened first, from elsewhere, with the library configured.
  (carrel-test--with-preload-library
    (let ((carrel-library-directory carrel-test--lib)
          (default-directory (file-name-as-directory (expand-file-name "~"))))
      (carrel carrel-test--lib)
      (let ((tree (current-buffer))
            (conn (carrel-test--preloaded)))
        (should (equal (carrel-test--recording (carrel-preload)) nil))
        (should (equal carrel--connections (list conn)))
        (should (eq (carrel-test--preloaded-tree) tree))))))

(ert-deftest carrel-test-preload-configured-library ()
  "With `carrel-library-directory' set, preload fetches it from any folder."
  (carrel-test--with-preload-library
    (let ((carrel-library-directory (abbreviate-file-name carrel-test--lib))
          (default-directory (file-name-as-directory (expand-file-name "~"))))
      (carrel-preload)
      (carrel-test--wait-held)
      (let ((sent (carrel-test--recording (call-interactively #'carrel))))
        (should (null (carrel-test--tree-requests sent))))
      (should (eq (current-buffer) (carrel-test--preloaded-tree)))
      (should (member "Poems" (carrel-test--rows))))))

(ert-deftest carrel-test-project-as-library-shows-first-section ()
  "A workspace folder that is itself a project opens on its first
section's rows, opened at once or preloaded."
  (carrel-test--with-preload-library
    (let ((poems (carrel-test--path "Poems"))
          (first-view '("Poems" "YOUR POETRY" "All" "Draft")))
      (carrel poems)
      (should (equal (seq-take (carrel-test--rows) 4) first-view))
      (kill-buffer)
      (let ((carrel-library-directory poems))
        (carrel-preload)
        (carrel-test--wait (lambda ()
                             (let* ((conn (carrel--connection-for poems))
                                    (tree (and conn (carrel--tree-buffer conn))))
                               (and tree (eq (buffer-local-value 'carrel--first-view tree) 'held))))
                           "the project's first view preloaded")
        (with-current-buffer (carrel--tree-buffer (carrel--connection-for poems))
          (carrel-test--settled)
          (should (equal (seq-take (carrel-test--rows) 4) first-view)))))))

(ert-deftest carrel-test-preload-failed-start-said-once ()
  "A server that cannot start is reported as opening reports it, once,
and no error escapes to stop the startup hook."
  (carrel-test--with-preload-library
    (let ((carrel-server-command '("sh" "-c" "head -c 1 >/dev/null; exit 3"))
          (start (with-current-buffer (messages-buffer) (point-max))))
      (carrel-preload)
      (carrel-test--wait (lambda () (null carrel--connections)) "the failed server dropped")
      (carrel-test--wait (lambda ()
                           (with-current-buffer (messages-buffer)
                             (save-excursion
                               (goto-char start)
                               (search-forward "Carrel could not start" nil t))))
                         "the failure reported")
      (accept-process-output nil 0.2)
      (let ((said (with-current-buffer (messages-buffer)
                    (buffer-substring-no-properties start (point-max)))))
        (should (= 1 (cl-count-if (lambda (line) (string-prefix-p "Carrel could not start" line))
                                  (split-string said "\n"))))
        (should (string-match-p (regexp-quote (format "in %s (" carrel-test--lib)) said))
        (should (string-match-p "check `carrel-server-command'" said)))
      (should-not (get-buffer (format "*carrel: %s*" (file-name-nondirectory carrel-test--lib))))
      ;; Opening says it the same way, as an error of its own.
      (should (string-prefix-p "Carrel could not start"
                               (cadr (should-error (carrel carrel-test--lib) :type 'user-error))))))
  (carrel-test--with-preload-library
    (let ((carrel-server-command '("/nonexistent/carrel" "lsp"))
          (start (with-current-buffer (messages-buffer) (point-max))))
      (carrel-preload)
      (should (null carrel--connections))
      (let ((said (with-current-buffer (messages-buffer)
                    (buffer-substring-no-properties start (point-max)))))
        (should (string-prefix-p "Carrel cannot find the server program “/nonexistent/carrel”" said))
        (should (= 1 (cl-count ?\n said)))
        (should (equal (cadr (should-error (carrel carrel-test--lib) :type 'user-error))
                       (string-trim-right said)))))))

;;;; At startup, with the defaults

(defun carrel-test--start-emacs-in (folder)
  "Start Emacs in FOLDER as package.el installs this package; return what it held.
A batch Emacs never runs `emacs-startup-hook', so the check runs it
as Emacs does once started, with the package's autoloads loaded and
nothing else: no init file, no setting.  The answer is a plist:
:loaded, whether the package was loaded; :held, whether the binder
held its first view before `carrel' was called; :asked, the tree
requests `carrel' then sent."
  (let* ((package (make-temp-file "carrel-package" t))
         (out (make-temp-file "carrel-startup")))
    (unwind-protect
        (progn
          (copy-file carrel-test--source (expand-file-name "carrel.el" package))
          (require 'package)
          (package-generate-autoloads "carrel" package)
          (let ((default-directory (file-name-as-directory folder))
                (check
                 `(progn
                    (run-hooks 'emacs-startup-hook)
                    (let ((answer (list :loaded (featurep 'carrel))))
                      (when (featurep 'carrel)
                        (let ((deadline (+ (float-time) 10)) tree)
                          (while (and (not (setq tree (let ((conn (carrel--connection-for default-directory)))
                                                        (and conn (carrel--tree-buffer conn)))))
                                      (< (float-time) deadline))
                            (accept-process-output nil 0.05))
                          (while (and tree (not (eq (buffer-local-value 'carrel--first-view tree) 'held))
                                      (< (float-time) deadline))
                            (accept-process-output nil 0.05))
                          (setq answer (plist-put answer :held (and tree (eq (buffer-local-value
                                                                               'carrel--first-view tree)
                                                                              'held))))
                          (let ((asked nil))
                            (advice-add 'jsonrpc-connection-send :before
                                        (lambda (_conn &rest message)
                                          (when (memq (plist-get message :method) '(carrel/tree :carrel/tree))
                                            (push (plist-get message :params) asked))))
                            (carrel)
                            (setq answer (plist-put answer :asked asked)))))
                      (with-temp-file ,out (prin1 answer (current-buffer)))
                      (kill-emacs 0)))))
            (should (zerop (call-process "emacs" nil nil nil "--batch" "-Q" "-L" package
                                         "-l" (expand-file-name "carrel-autoloads.el" package)
                                         "--eval" (prin1-to-string check))))
            (with-temp-buffer
              (insert-file-contents out)
              (read (current-buffer)))))
      (delete-directory package t)
      (delete-file out))))

(ert-deftest carrel-test-startup-preloads-in-a-library ()
  "Emacs started in a library with the defaults holds the binder before
\[carrel] is called, which then asks nothing; started elsewhere, it
starts nothing and does not even load the package."
  (carrel-test--with-preload-library
    (let ((inside (carrel-test--start-emacs-in (carrel-test--path "Poems" "Draft"))))
      (should (plist-get inside :loaded))
      (should (plist-get inside :held))
      (should (null (plist-get inside :asked))))
    (let ((elsewhere (make-temp-file "carrel-elsewhere" t)))
      (unwind-protect
          (should (equal (carrel-test--start-emacs-in elsewhere) '(:loaded nil)))
        (delete-directory elsewhere t)))))

(provide 'carrel-preload-tests)
;;; carrel-preload-tests.el ends here
